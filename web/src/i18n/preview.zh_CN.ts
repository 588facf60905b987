import type preview from './preview.en_US';
import type { LocaleTree } from './types';

/** 查看器的中文文本（`preview` 命名空间）。 */
const previewZh: LocaleTree<typeof preview> = {
  download: '下载',
  close: '关闭',
  loadFailed: '预览加载失败',
  none: {
    title: '此文件无法预览',
    body: '“{{name}}”（{{size}}）无法在此预览。要下载到本地打开吗？',
    bodyNoDownload: '“{{name}}”（{{size}}）无法在此预览。',
  },
  archive: {
    extract: '解压到此处',
    extracting: '正在解压“{{name}}”…',
    extracted: '已解压到“{{name}}”',
    unreadable: '无法读取此压缩包',
    summary_one: '{{count}} 个文件，解压后 {{size}}',
    summary_other: '{{count}} 个文件，解压后 {{size}}',
    truncated: '此压缩包的条目过多，未全部列出。',
    empty: '此文件夹为空',
  },
  text: {
    truncated: '仅显示前 {{size}}，下载文件可查看全部内容。',
    empty: '此文件为空',
    encoding: '编码：{{name}}',
  },
};

export default previewZh;
