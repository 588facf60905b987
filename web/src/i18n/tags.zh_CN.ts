import type tags from './tags.en_US';
import type { LocaleTree } from './types';

/** 标签的中文文本（`tags` 命名空间）。 */
const tagsZh: LocaleTree<typeof tags> = {
  title: '标签',
  manage: '管理标签',
  add: '新建标签',
  name: '名称',
  color: '颜色',
  namePlaceholder: '标签名称',
  rules: {
    required: '请输入标签名称',
    forbidden: '标签名称不能包含 [ ] / \\ " < > ? *',
    tooLong: '标签名称最多 {{max}} 个字符',
    exists: '已有同名标签',
  },
  deleteTitle: '删除标签“{{name}}”',
  deleteConfirm: '此操作将永久删除该标签, 是否继续?',
  deleted: '删除成功',
  modified: '修改成功',
  added: '添加成功',
  orderUpdated: '标签排序已更新',
  edit: '编辑',
  delete: '删除',
  save: '保存',
  cancel: '取消',
  drag: '拖动以排序',
  moveUp: '上移',
  moveDown: '下移',
  showFiles: '查看带有此标签的文件',
  empty: '还没有标签',
  emptyHint: '在这里新建标签，或在文件的菜单中给文件加标签。',
  action: '标签…',
  dialog: {
    title: '“{{name}}”的标签',
    titleMany: '{{count}} 项的标签',
    label: '标签',
    placeholder: '选择标签，或输入新标签后按回车',
    hint: '新名称会以默认颜色成为标签；颜色可在标签页面修改。',
    saved: '标签已保存',
    many: '这里选中的每个标签都会加到全部 {{count}} 项上；移除的标签会从它们全部移除。',
  },
  details: {
    title: '标签',
    none: '没有标签',
    edit: '编辑标签',
  },
};

export default tagsZh;
