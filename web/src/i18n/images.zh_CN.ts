import type images_en from './images.en_US';
import type { LocaleTree } from './types';

/** 图片查看器的中文文本（`images` 命名空间）。 */
const images: LocaleTree<typeof images_en> = {
  zoomIn: '放大',
  zoomOut: '缩小',
  fit: '适应屏幕',
  rotateLeft: '向左旋转',
  rotateRight: '向右旋转',
  photo: '照片',
  info: '详细信息',
  download: '下载',
  close: '关闭',
  previous: '上一张',
  next: '下一张',
  loadFailed: '无法加载此图片',
  webp: {
    title: '图片存储',
    label: '以 WebP 格式存储上传的图片',
    hint: '新上传的 JPEG、PNG 和 TIFF 图片在变小时会重新编码为 WebP，并改名为 .webp。已存储的图片保持不变。',
    saved: '已保存',
  },
  facts: {
    dimensions: '尺寸',
    format: '格式',
    size: '大小',
    camera: '相机',
    lens: '镜头',
    takenAt: '拍摄时间',
    exposure: '曝光时间',
    aperture: '光圈',
    iso: 'ISO',
    focalLength: '焦距',
    software: '软件',
    none: '此图片没有详细信息',
  },
};

export default images;
