import type en_US from './en_US';
import core from './core.zh_CN';
import drive from './drive.zh_CN';
import type { LocaleTree } from './types';

/** 简体中文，与 en_US 的键完全一致。 */
const zh_CN: LocaleTree<typeof en_US> = { ...core, ...drive };

export default zh_CN;
