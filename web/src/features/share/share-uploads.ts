import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { feedback } from '../../lib/feedback';
import i18n from '../../i18n';
import { shareUploadRoutes } from '../upload/api';
import { uploadMessageOf } from '../upload/engine/adapter';
import { UploadQueue } from '../upload/engine/queue';
import { Transfer } from '../upload/engine/transfer';
import type { PickedFile, UploadItem } from '../upload/types';
import { checkShareNames, shareKeys } from './api';
import { selectShare } from '../../stores/share-tokens';

const t = (key: string, options?: Record<string, unknown>): string =>
  (i18n.t as (key: string, options?: Record<string, unknown>) => string)(key, options);

/** Same names where the visitor uploads: refused unless the share may replace them, then asked. */
async function admitIntoShare(
  shareId: string,
  names: string[],
  currentDirectory: string,
): Promise<boolean> {
  const found = await checkShareNames(shareId, currentDirectory, names).catch(() => null);
  if (!found) return false;
  if (!found.exist) return true;
  if (!found.replace) {
    void feedback().message.error(t('share:page.existsNoReplace'));
    return false;
  }
  return new Promise((resolve) => {
    feedback().modal.confirm({
      title: t('share:page.exists'),
      okText: t('common:actions.ok'),
      cancelText: t('common:actions.cancel'),
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/**
 * The upload queue of a share a visitor uploads into: the own drive's engine (queue and
 * transfer) on the share's public routes, with the share's id and token as headers. Nothing is
 * remembered across reloads, and the list is the share page's own.
 */
export function createShareUploadQueue(
  shareId: string,
  publish: (items: UploadItem[]) => void,
  refresh: () => void,
): UploadQueue {
  return new UploadQueue({
    transfer: new Transfer(shareUploadRoutes(() => selectShare(shareId))),
    view: {
      publish,
      show: () => undefined,
      hide: () => undefined,
      error: (content) => void feedback().message.error(content),
      success: (content) => void feedback().message.success(content),
      messageOf: uploadMessageOf,
      foldersCreated: () => t('upload:foldersCreated'),
      refresh,
    },
    admit: (names, currentDirectory) => admitIntoShare(shareId, names, currentDirectory),
  });
}

/**
 * Uploads into a folder of a share: the list of this page's uploads, and `upload`, which queues
 * picked files (three at a time, spec §9) and reports how the batch went once it is done.
 */
export function useShareUploads(shareId: string, share: string) {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const queue = useMemo(
    () =>
      createShareUploadQueue(shareId, setItems, () => {
        void queryClient.invalidateQueries({ queryKey: shareKeys.visit(share) });
      }),
    [shareId, share, queryClient],
  );

  const upload = async (picked: PickedFile[], currentDirectory: string) => {
    if (picked.length === 0) return;
    // a new batch replaces the list of one that is done
    if (queue.list().every((item) => item.status === 'success' || item.status === 'failure')) {
      queue.cancelAll();
    }
    const batchId = await queue.add(picked, [], currentDirectory);
    if (!batchId) return;
    await queue.idle();
    const batch = queue.list().filter((item) => item.batchId === batchId);
    const failed = batch.filter((item) => item.status === 'failure').length;
    if (failed) void feedback().message.error(t('share:page.uploadFailed', { count: failed }));
    else void feedback().message.success(t('share:page.uploaded', { count: batch.length }));
    await queryClient.invalidateQueries({ queryKey: shareKeys.visit(share) });
  };

  return { items, upload, close: () => queue.cancelAll() };
}
