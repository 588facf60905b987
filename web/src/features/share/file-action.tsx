import { ShareAltOutlined } from '@ant-design/icons';
import i18n from '../../i18n';
import type { FileAction } from '../files/actions';
import { openShareDialog } from './share-dialog-store';

/**
 * "Share…" for the file browser's action registry: one live item of one's own drive. It opens
 * the share dialog that the signed-in layout holds.
 */
export const shareFileAction: FileAction = {
  id: 'share',
  label: () => i18n.t('share:actions.share'),
  icon: <ShareAltOutlined />,
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
};
