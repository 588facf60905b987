import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { checkMoveCopy, fileInfo, resolveFolderId, useCopyItems, useMoveItems } from '../api';
import type { DropTarget } from '../../../components/file-browser/drag';
import { insertListed, refreshFolder, refreshListing } from '../listing-cache';
import type { ListingKey } from '../types';
import { useBulkProgress } from './use-bulk-progress';
import type { FileDialogs } from './use-file-dialogs';

/** What a move or copy needs of an item (the clipboard holds no more). */
export interface MoveLike {
  id: string;
  name: string;
  path: string;
  isFolder: boolean;
}

/**
 * Moving and copying into a folder (paste, the move dialog, drag and drop): refused into
 * itself, asked before anything of the same name is replaced, followed by a toast when long.
 */
export function useTransfer(path: string, listingKey: ListingKey, confirm: FileDialogs['confirm']) {
  const { t } = useTranslation('files');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const bulkProgress = useBulkProgress();
  const moveItems = useMoveItems();
  const copyItems = useCopyItems();

  /** The folder on screen as a target. */
  const currentTarget = useCallback(async (): Promise<DropTarget> => {
    const id = await resolveFolderId(queryClient, path);
    const segments = path.split('/').filter(Boolean);
    return { id, path, name: segments[segments.length - 1] ?? t('allFiles') };
  }, [queryClient, path, t]);

  /** Move or copy, asking before anything of the same name is replaced. */
  const transfer = async (
    moving: MoveLike[],
    target: DropTarget,
    mode: 'move' | 'copy',
  ): Promise<boolean> => {
    if (moving.length === 0) return false;
    const ids = moving.map((item) => item.id);
    if (
      moving.some(
        (i) => i.isFolder && (i.id === target.id || target.path.startsWith(`${i.path}${i.name}/`)),
      )
    ) {
      void message.warning(t('messages.moveIntoItself'));
      return false;
    }
    if (mode === 'move' && moving.every((i) => i.path === target.path)) {
      void message.info(t('messages.alreadyHere'));
      return false;
    }
    const targetId = target.id.startsWith('path:')
      ? await resolveFolderId(queryClient, target.path)
      : target.id;
    const conflicts = await checkMoveCopy(ids, targetId);
    let override = false;
    if (conflicts.length > 0) {
      const names =
        conflicts
          .slice(0, 5)
          .map((c) => `"${c.name}"`)
          .join(', ') + (conflicts.length > 5 ? '…' : '');
      override = await confirm({
        title: t('confirm.overwriteTitle'),
        content: t('confirm.overwriteBody', {
          count: conflicts.length,
          target: target.name,
          names,
        }),
        okText: t('confirm.overwriteOk'),
        danger: true,
      });
      if (!override) return false;
    }
    const progress = bulkProgress(mode);
    const input = {
      ids,
      targetId,
      targetPath: target.path,
      override,
      onProgress: progress.onProgress,
    };
    if (mode === 'move') {
      const results = await moveItems.mutateAsync(input).finally(progress.end);
      const moved = new Set(results.filter((r) => r.code === 0).map((r) => r.from));
      // a move announces no new files: show the few that arrived where they are looked at
      const arrived = moving.filter((i) => moved.has(`${i.path}${i.name}`));
      if (target.path === path && arrived.length > 0 && arrived.length <= 50) {
        const rows = await Promise.all(arrived.map((i) => fileInfo(i.id).catch(() => null)));
        for (const row of rows) if (row) insertListed(queryClient, row);
      } else refreshFolder(queryClient, 'home', target.path);
    } else {
      const answer = await copyItems.mutateAsync(input).finally(progress.end);
      if (!Array.isArray(answer) && answer && 'taskId' in answer) {
        void message.info({ content: t('messages.backgroundCopy'), duration: 4 });
      }
      // copies announce themselves (createFile); a short listing is reloaded to be exact
      if (target.path !== path) refreshFolder(queryClient, 'home', target.path);
      else refreshListing(queryClient, listingKey);
    }
    return true;
  };

  return { transfer, currentTarget };
}
