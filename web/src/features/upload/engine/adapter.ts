import { ApiError } from '../../../api/client';
import { queryClient } from '../../../api/query-client';
import { feedback } from '../../../lib/feedback';
import i18n from '../../../i18n';
import { useAppStore } from '../../../stores/app';
import { authKeys } from '../../../api/account';
import { useUploadStore } from '../store';
import type { QueueView } from './queue';

const t = (key: string, options?: Record<string, unknown>): string =>
  (i18n.t as (key: string, options?: Record<string, unknown>) => string)(key, options);

/** A failure as the upload list shows it: the server's text, or ours for a lost connection. */
export function uploadMessageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === 'transport' || error.kind === 'timeout') {
      return error.status > 0
        ? t('upload:errors.http', { status: error.status })
        : t('upload:errors.network');
    }
    return error.message;
  }
  return error instanceof Error && error.message ? error.message : String(error);
}

/** spec §5: same names in the folder → 'file already exists, overwrite?'; cancel aborts. */
export function confirmOverwrite(): Promise<boolean> {
  return new Promise((resolve) => {
    feedback().modal.confirm({
      title: t('upload:overwrite.title'),
      content: t('upload:overwrite.content'),
      okText: t('upload:overwrite.ok'),
      cancelText: t('common:actions.cancel'),
      okButtonProps: { 'data-testid': 'upload-overwrite-ok' },
      cancelButtonProps: { 'data-testid': 'upload-overwrite-cancel' },
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/** spec §5: closing the uploader while uploading asks first. */
export function confirmExit(): Promise<boolean> {
  return new Promise((resolve) => {
    feedback().modal.confirm({
      title: t('upload:exit.title'),
      content: t('upload:exit.content'),
      okText: t('upload:exit.ok'),
      cancelText: t('common:actions.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'upload-exit-ok' },
      cancelButtonProps: { 'data-testid': 'upload-exit-cancel' },
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/** Short notices of the upload, at the top of the page. */
export const uploadNotices = {
  error: (content: string) => void feedback().message.error({ content, duration: 3 }),
  success: (content: string) => void feedback().message.success({ content, duration: 3 }),
};

/**
 * The own drive's upload queue as the views read it: the list and the panel of the upload
 * store (store.ts), the page's notices, and the listings and quota refreshed after new files.
 */
export const uploadStoreView: QueueView = {
  publish: (items) => useUploadStore.setState({ items }),
  show: () => {
    if (useAppStore.getState().device === 'desktop') useUploadStore.getState().setPanelOpen(true);
  },
  hide: () => useUploadStore.getState().setPanelOpen(false),
  error: uploadNotices.error,
  success: uploadNotices.success,
  messageOf: uploadMessageOf,
  foldersCreated: () => t('upload:foldersCreated'),
  refresh: () => {
    void queryClient.invalidateQueries({ queryKey: ['files'] });
    void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
  },
};
