import type en from './upload-sessions.en_US';
import type { LocaleTree } from './types';

/** 服务器上进行中的上传（自己的和分享访客的）的中文文本。 */
const sessions: LocaleTree<typeof en> = {
  open: '服务器上的上传',
  title: '服务器上进行中的上传',
  hint: '尚未完成的、传入你网盘的上传：包括你在任何设备上发起的，以及你的分享的访客发起的。每个上传在完成或取消之前，都会占用与其大小相同的空间。',
  empty: '没有进行中的上传',
  byMe: '你',
  byVisitor: '“{{share}}”的访客（{{address}}）',
  unknownShare: '已删除的分享',
  received: '已接收 {{received}} / {{total}}',
  lastActivity: '最后活动 {{date}}',
  cancel: '取消上传',
  keep: '保留',
  cancelConfirm: '取消“{{name}}”的上传？已接收的数据会被删除，空间随即释放。',
  cancelled: '已取消“{{name}}”的上传',
  refresh: '刷新',
};

export default sessions;
