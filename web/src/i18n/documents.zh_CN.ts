import type documents from './documents.en_US';
import type { LocaleTree } from './types';

/** 文档查看器（PDF、EPUB、Office）的中文文本。 */
const documentsZh: LocaleTree<typeof documents> = {
  loading: '正在加载文档…',
  converting: '正在准备文档预览…',
  failed: '无法显示此文档',
  badAddress: '此查看器只能打开本网盘中的文件',
  noFile: '没有指定要打开的文件',
  pdf: {
    previous: '上一页',
    next: '下一页',
    page: '页',
    ofPages: '/ {{count}}',
    zoomIn: '放大',
    zoomOut: '缩小',
    zoom: '缩放',
    fitWidth: '适合页宽',
    fitPage: '适合页面',
    auto: '自动',
    find: '在文档中查找',
    findNext: '下一个',
    findPrevious: '上一个',
    notFound: '未找到',
    password: '此 PDF 受密码保护，请输入密码：',
    wrongPassword: '密码错误，请重试：',
  },
  epub: {
    previous: '上一页',
    next: '下一页',
    contents: '目录',
    fontSmaller: '缩小字体',
    fontLarger: '放大字体',
  },
  office: {
    title: '{{name}}（PDF 预览）',
  },
};

export default documentsZh;
