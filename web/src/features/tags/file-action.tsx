import { TagsOutlined } from '@ant-design/icons';
import { FILE_AUTHORITY } from '../../actions/authorities';
import i18n from '../../i18n';
import type { FileAction } from '../../actions/file-actions';
import type { FileItem } from '@nimbus/contract';
import { openTagDialog } from './tag-dialog-store';

/** The items that can carry tags: rows of one's own drive, not mounts. */
const taggable = (items: readonly FileItem[]) => items.filter((item) => !item.mount);

/**
 * The tags feature's actions in the file browser's registry (app/action-registry.ts). "Tags…": one or
 * more live items; tagging is editing them.
 */
export const TAG_FILE_ACTIONS = {
  tags: {
    id: 'tags',
    label: () => i18n.t('tags:action'),
    icon: <TagsOutlined />,
    authority: FILE_AUTHORITY.update,
    visible: (ctx) =>
      taggable(ctx.items).length > 0 && ctx.view.kind !== 'trash' && ctx.view.kind !== 'mount',
    run: (ctx) =>
      openTagDialog(taggable(ctx.items).map((item) => ({ id: item.id, name: item.name }))),
  },
} satisfies Record<string, FileAction>;
