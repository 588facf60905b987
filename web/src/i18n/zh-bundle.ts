import antd from 'antd/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import messages from './zh_CN';

/** Everything the Chinese UI needs beyond the code: loaded only when Chinese is chosen. */
export default { messages, antd };
