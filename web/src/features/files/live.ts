import { onLiveMessage, type LiveMessage } from '../../api/events';
import { queryClient } from '../../api/query-client';
import { authKeys } from '../../api/account';
import { fileKeys } from './api';
import { changedFolders, refreshFolderSizes } from './live-sizes';
import { applyFileMessages } from './use-listing';

/** File messages wait this long to be applied together (a bulk operation sends thousands). */
const BATCH_MS = 100;
/** Folder sizes on screen are asked again at most this often while changes go on below them. */
const SIZES_MS = 500;

let installed = false;

/**
 * Keeps every cached listing true to the live event stream, whether or not it is on screen:
 * file messages patch the listings, a finished index rebuild reloads them (API-NOTES §2).
 */
export function installLiveListings(): void {
  if (installed) return;
  installed = true;
  let queue: LiveMessage[] = [];
  let timer: number | null = null;
  let resized = new Set<string>();
  let sizesTimer: number | null = null;
  const flushSizes = () => {
    sizesTimer = null;
    const changed = resized;
    resized = new Set();
    void refreshFolderSizes(queryClient, changed, (updates) =>
      applyFileMessages(queryClient, updates),
    );
  };
  const flush = () => {
    timer = null;
    const batch = queue;
    queue = [];
    applyFileMessages(queryClient, batch);
    for (const folder of changedFolders(batch)) resized.add(folder);
    if (resized.size > 0) sizesTimer ??= window.setTimeout(flushSizes, SIZES_MS);
  };
  onLiveMessage('fileChange', (message) => {
    queue.push(message);
    timer ??= window.setTimeout(flush, BATCH_MS);
  });
  onLiveMessage('synced', (message) => {
    const body = message.body as { syncPercent?: number } | null;
    if (body?.syncPercent === 100) {
      void queryClient.invalidateQueries({ queryKey: fileKeys.all });
      void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
    }
  });
}
