import core from './core.en_US';
import drive from './drive.en_US';

/** English texts, one namespace per feature. zh_CN must have exactly the same keys. */
const en_US = { ...core, ...drive };

export default en_US;
