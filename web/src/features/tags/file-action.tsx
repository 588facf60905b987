import { TagsOutlined } from '@ant-design/icons';
import i18n from '../../i18n';
import type { FileAction } from '../files/actions';
import { openTagDialog } from './tag-dialog-store';

/** "Tags…" for the file browser's action registry: one or more live items. */
export const tagFileAction: FileAction = {
  id: 'tags',
  label: () => i18n.t('tags:action'),
  icon: <TagsOutlined />,
  visible: (ctx) => ctx.items.length > 0 && ctx.view.kind !== 'trash' && ctx.view.kind !== 'mount',
  run: (ctx) => openTagDialog(ctx.items.map((item) => ({ id: item.id, name: item.name }))),
};
