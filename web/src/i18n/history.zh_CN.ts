import type history from './history.en_US';
import type { LocaleTree } from './types';

/** 文件的历史版本（`history` 命名空间）：历史版本对话框。 */
const historyZh: LocaleTree<typeof history> = {
  action: '历史版本',
  title: '“{{name}}”的历史版本',
  intro: '此文件每次被替换（上传覆盖、保存、WebDAV、还原）时，原来的内容都保存在这里，最新的在前。',
  empty: '还没有历史版本。',
  emptyHint:
    '文本、Markdown、思维导图和 Office 文件每次被替换都会保留一个历史版本；其他文件被替换时，原文件进入回收站。',
  failed: '无法加载历史版本。',
  retry: '重试',
  more: '显示更早的版本',
  preview: '预览',
  download: '下载',
  restore: '还原',
  restoreConfirm: '还原此版本？当前内容会先保存为一个历史版本。',
  restored: '已还原 {{date}} 的版本',
  previewTitle: '“{{name}}”在 {{date}} 的内容',
  close: '关闭',
  cancel: '取消',
  shareVisitor: '分享链接 {{link}} 的访客',
  kept_one: '保留最新的 1 个版本；更早的版本满一天后删除。',
  kept_other: '保留最新的 {{count}} 个版本；更早的版本满一天后删除。',
  keptDays_one: '保留最新的 1 个版本。',
  keptDays_other: '保留最新的 {{count}} 个版本，且不超过 {{days}} 天（最新的版本始终保留）。',
};

export default historyZh;
