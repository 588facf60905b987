import 'dayjs/locale/zh-cn';
import messages from './core.zh_CN';

/**
 * What the Chinese UI's first page needs beyond the code: loaded only when Chinese is chosen.
 * The drive's texts follow with the drive (index.ts `loadDriveTexts`).
 */
export default { messages };
