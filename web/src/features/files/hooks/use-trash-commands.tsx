import { useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { quietOperation } from '../../../api/events';
import type { FileCommands } from '../actions';
import { useClearTrash, useRestoreItems, useSweepItems, useTrashItems } from '../api';
import { refreshListing } from '../listing-cache';
import type { ListingKey } from '../types';
import { useBulkProgress } from './use-bulk-progress';
import type { FileDialogs } from './use-file-dialogs';
import type { FileSelection } from './use-file-selection';

type TrashCommands = Pick<FileCommands, 'trash' | 'restore' | 'deleteForever' | 'emptyTrash'>;

/** Into the trash (with an undo), back out of it, and gone for good. */
export function useTrashCommands(
  listingKey: ListingKey,
  total: number,
  sel: FileSelection,
  confirm: FileDialogs['confirm'],
): TrashCommands {
  const { t } = useTranslation('files');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const bulkProgress = useBulkProgress();
  const trashItems = useTrashItems();
  const restoreItems = useRestoreItems();
  const sweepItems = useSweepItems();
  const clearTrash = useClearTrash();

  const restoreWithProgress = (ids: string[]) => {
    const progress = bulkProgress('restore');
    return restoreItems.mutateAsync({ ids, onProgress: progress.onProgress }).finally(progress.end);
  };

  return {
    trash: (targets) => {
      const ids = targets.map((item) => item.id);
      const progress = bulkProgress('trash');
      quietOperation('delete');
      void trashItems
        .mutateAsync({ ids, onProgress: progress.onProgress })
        .finally(progress.end)
        .then(() => {
          sel.clear();
          const key = `trash-${Date.now()}`;
          void message.success({
            key,
            duration: 6,
            content: (
              <span className="nb-undo" data-testid="trash-message">
                {t('messages.trashed', { count: ids.length, name: targets[0]?.name ?? '' })}
                <Button
                  type="link"
                  size="small"
                  data-testid="trash-undo"
                  onClick={() => {
                    message.destroy(key);
                    quietOperation('restore');
                    void restoreWithProgress(ids);
                  }}
                >
                  {t('messages.undo')}
                </Button>
              </span>
            ),
          });
        });
    },
    restore: (targets) => {
      const first = targets[0];
      void confirm({
        title: t('confirm.restoreTitle'),
        content:
          targets.length === 1 && first
            ? t('confirm.restoreOne', { name: first.name, path: first.path })
            : t('confirm.restoreMany', { count: targets.length }),
        okText: t('confirm.restoreOk'),
      }).then(async (ok) => {
        if (!ok) return;
        // this tab says how it went itself: the live messages of the same restore stay quiet
        quietOperation('restore');
        const results = await restoreWithProgress(targets.map((i) => i.id));
        sel.clear();
        const failed = (results ?? []).filter((r) => r.code !== 0);
        for (const failure of failed) {
          void message.error(t('messages.restoreFailed', { name: failure.from, msg: failure.msg }));
        }
        const restored = targets.length - failed.length;
        if (restored > 0) {
          void message.success(
            t('messages.restored', { count: restored, name: first?.name ?? '' }),
          );
        }
        refreshListing(queryClient, listingKey, true);
      });
    },
    deleteForever: (targets) => {
      const first = targets[0];
      void confirm({
        title: t('confirm.sweepTitle'),
        content:
          targets.length === 1 && first
            ? t('confirm.sweepOne', { name: first.name })
            : t('confirm.sweepMany', { count: targets.length }),
        okText: t('confirm.sweepOk'),
        danger: true,
      }).then(async (ok) => {
        if (!ok) return;
        quietOperation('sweep');
        const progress = bulkProgress('sweep');
        await sweepItems
          .mutateAsync({ ids: targets.map((i) => i.id), onProgress: progress.onProgress })
          .finally(progress.end);
        sel.clear();
        void message.success(t('messages.swept'));
      });
    },
    emptyTrash: () => {
      void confirm({
        title: t('confirm.emptyTitle'),
        content: t('confirm.emptyBody', { count: total }),
        okText: t('confirm.emptyOk'),
        danger: true,
      }).then(async (ok) => {
        if (!ok) return;
        quietOperation('clear-trash');
        await clearTrash.mutateAsync();
        sel.clear();
        void message.success(t('messages.trashEmptied'));
      });
    },
  };
}
