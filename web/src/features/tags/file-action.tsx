import { TagsOutlined } from '@ant-design/icons';
import i18n from '../../i18n';
import type { FileAction } from '../files/actions';
import type { FileItem } from '../files/types';
import { openTagDialog } from './tag-dialog-store';

/** The items that can carry tags: rows of one's own drive, not mounts. */
const taggable = (items: readonly FileItem[]) => items.filter((item) => !item.mount);

/** "Tags…" for the file browser's action registry: one or more live items. */
export const tagFileAction: FileAction = {
  id: 'tags',
  label: () => i18n.t('tags:action'),
  icon: <TagsOutlined />,
  visible: (ctx) =>
    taggable(ctx.items).length > 0 && ctx.view.kind !== 'trash' && ctx.view.kind !== 'mount',
  run: (ctx) =>
    openTagDialog(taggable(ctx.items).map((item) => ({ id: item.id, name: item.name }))),
};
