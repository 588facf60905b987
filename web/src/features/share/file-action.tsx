import { ShareAltOutlined } from '@ant-design/icons';
import { FILE_AUTHORITY } from '../../actions/authorities';
import i18n from '../../i18n';
import type { FileAction } from '../../actions/file-actions';
import { openShareDialog } from './share-dialog-store';

/**
 * The share feature's actions in the file browser's registry (app/action-registry.ts). "Share…": one
 * live item of one's own drive; it opens the share dialog that the signed-in layout holds.
 */
export const SHARE_FILE_ACTIONS = {
  share: {
    id: 'share',
    label: () => i18n.t('share:actions.share'),
    icon: <ShareAltOutlined />,
    authority: FILE_AUTHORITY.share,
    // a mount is someone else's share: only its owner shares it
    visible: (ctx) => ctx.items.length === 1 && !ctx.items[0]!.mount && ctx.view.kind !== 'trash',
    run: (ctx) => {
      const item = ctx.items[0];
      if (item)
        openShareDialog({
          id: item.id,
          name: item.name,
          isFolder: item.isFolder,
          suffix: item.suffix,
        });
    },
  },
} satisfies Record<string, FileAction>;
