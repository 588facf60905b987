import { formatSize, UPLOAD_PARAMS_TIMEOUT_MS, usersApi } from '@nimbus/contract';
import { callEndpoint } from '../../api/endpoints';
import { queryClient } from '../../api/query-client';
import i18n from '../../i18n';
import { useSessionStore } from '../../stores/session';
import { userInfoQuery } from '../../api/account';
import type { CurrentFolder } from '../../stores/current-folder';
import { OWN_DRIVE_ROUTES } from './api';
import { confirmOverwrite, uploadNotices, uploadStoreView } from './engine/adapter';
import { UploadQueue } from './engine/queue';
import { Transfer } from './engine/transfer';
import { forgetUploads, loadUploads, saveUploads } from './queue-db';
import { UploadParams, UploadParamsTimeout } from './upload-params';

export { confirmExit } from './engine/adapter';

/** The server takes at most 10 000 names a call. */
const CHECK_EXIST_BATCH = 1000;

const transfer = new Transfer(OWN_DRIVE_ROUTES);
const params = new UploadParams();

/** The current folder, from the file browser; uploads without a folder of their own go there. */
export function setUploadParams(folder: CurrentFolder | null): void {
  params.set(folder);
}

/**
 * The own drive's uploader: one per tab, outside React. The queue (engine/queue.ts) moves the
 * files through the transfer (engine/transfer.ts) to the drive's upload routes and shows them
 * in the upload store (engine/adapter.ts); the queue is remembered across reloads.
 */
export const uploader = new UploadQueue({
  transfer,
  view: uploadStoreView,
  async target() {
    try {
      return (await params.wait(UPLOAD_PARAMS_TIMEOUT_MS)).path;
    } catch (error) {
      if (error instanceof UploadParamsTimeout) {
        uploadNotices.error(i18n.t('upload:paramsTimeout'));
        return null;
      }
      throw error;
    }
  },
  async admit(names, currentDirectory) {
    const signal = new AbortController().signal;
    let exist = false;
    for (let i = 0; i < names.length && !exist; i += CHECK_EXIST_BATCH) {
      exist = await transfer.exists(
        names.slice(i, i + CHECK_EXIST_BATCH),
        currentDirectory,
        signal,
      );
    }
    return !exist || confirmOverwrite();
  },
  // the quota as it is now, before a byte is hashed or sent (the server refuses too)
  async room(bytes, queued) {
    const info = await queryClient.fetchQuery({ ...userInfoQuery, staleTime: 0 });
    const free = Math.max(0, info.quota * 1024 ** 3 - info.takeUpSpace - queued);
    if (bytes <= free) return null;
    return i18n.t('upload:noSpace', { need: formatSize(bytes), free: formatSize(free) });
  },
  memory: {
    username: () => useSessionStore.getState().username,
    save: (rows) => void saveUploads(rows),
    forget: (ids) => void forgetUploads(ids),
    load: loadUploads,
  },
  // the client's own call shows the "log in again" prompt of spec §8
  onNotLoggedIn: () => void callEndpoint(usersApi.info).catch(() => undefined),
});

// signing out stops every transfer; what is remembered stays for the next sign-in
useSessionStore.subscribe((state, previous) => {
  if (previous.token && !state.token) uploader.reset();
});
