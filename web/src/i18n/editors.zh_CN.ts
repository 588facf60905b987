import type en from './editors.en_US';
import type { LocaleTree } from './types';

/** 文档编辑器（markdown、思维导图、历史版本）的中文文本。 */
const editors: LocaleTree<typeof en> = {
  save: '保存',
  saved: '已保存',
  saveFailed: '文档保存失败',
  savedAsCopy: '已另存为 {{name}}',
  saveFirst: '请先保存当前修改',
  copy: '副本',
  cancel: '取消',
  leave: {
    title: '不保存就关闭？',
    body: '上次保存之后的修改将会丢失。',
    discard: '不保存，关闭',
    stay: '继续编辑',
  },
  conflict: {
    title: '文档已在别处修改',
    body: '打开之后，有人在别处保存了这个文档（{{date}}）。你的修改要怎么处理？',
    elsewhere: '打开之后，这个文档已在别处被修改。',
    reload: '载入对方的版本（放弃我的修改）',
    keepMine: '把我的保存为最新版本（对方的保留在历史版本中）',
    copy: '把我的另存为旁边的副本',
  },
  draft: {
    found: '{{date}} 的修改尚未保存。要恢复吗？',
    restore: '恢复修改',
    discard: '丢弃',
  },
  history: {
    title: '历史版本',
    empty: '暂无历史版本',
    failed: '历史版本加载失败。',
    retry: '重试',
    view: '查看',
    restore: '恢复',
    restoreConfirm: '恢复这个版本？当前内容会先保存为一个历史版本。',
    shareVisitor: '分享链接 {{link}} 的访客',
  },
  version: {
    showing: '正在查看 {{who}} 于 {{date}} 保存的版本（只读）',
    back: '取消预览',
  },
  remote: {
    held: '未加载来自其他网站的图片和内容，这些网站因此不会知道此文档正在被阅读。',
    load: '加载远程图片',
  },
  markdown: {
    image: '从文件或网址插入图片',
    placeholder: '在这里写作。粘贴或拖入图片即可添加。',
    plantUmlOff: '不绘制 PlantUML 图：那需要把图的内容发送到 plantuml.com。',
  },
  mind: {
    image: '为主题添加图片',
    selectFirst: '请先选择一个主题',
    zoom: '缩放',
    layout: '结构',
    theme: '主题',
    expand: '展开',
    expandAll: '全部展开',
    level: '展开到第 {{level}} 级',
    centre: '回到中心',
    hand: '拖动画布',
    select: '选择节点',
    addChild: '添加子节点（Tab）',
    addSibling: '添加同级节点（Enter）',
    remove: '删除（Delete）',
    newTopic: '新主题',
    layouts: {
      default: '思维导图',
      structure: '组织结构图',
      filetree: '目录组织图',
      right: '逻辑结构图（向右）',
      'fish-bone': '鱼骨图',
      tianpan: '时间轴',
    },
    themes: {
      'fresh-blue': '天空蓝',
      wire: '线框',
      fish: '鱼骨',
      classic: '经典',
      'classic-compact': '经典紧凑',
      snow: '温柔冷光',
      'snow-compact': '紧凑冷光',
      tianpan: '经典天盘',
      'tianpan-compact': '紧凑天盘',
    },
  },
};

export default editors;
