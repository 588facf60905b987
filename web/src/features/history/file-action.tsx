import { HistoryOutlined } from '@ant-design/icons';
import { FILE_AUTHORITY } from '../../actions/authorities';
import i18n from '../../i18n';
import type { FileAction } from '../../actions/file-actions';
import { openHistoryDialog } from './history-dialog-store';

/**
 * The history feature's actions in the file browser's registry (app/action-registry.ts).
 * "History": one live file of one's own drive, whatever its kind (a renamed file keeps its
 * versions); the dialog lists them, previews, downloads and restores one. Versions are part of
 * what a download gives, so the role needs downloads (docs/ARCHITECTURE.md).
 */
export const HISTORY_FILE_ACTIONS = {
  history: {
    id: 'history',
    label: () => i18n.t('history:action'),
    icon: <HistoryOutlined />,
    authority: FILE_AUTHORITY.download,
    visible: (ctx) =>
      ctx.items.length === 1 &&
      !ctx.items[0]!.isFolder &&
      !ctx.items[0]!.mount &&
      ctx.view.kind !== 'trash' &&
      ctx.view.kind !== 'mount',
    run: (ctx) => {
      const item = ctx.items[0];
      if (item) openHistoryDialog({ id: item.id, name: item.name, suffix: item.suffix });
    },
  },
} satisfies Record<string, FileAction>;
