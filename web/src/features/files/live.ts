import { onLiveMessage, type LiveMessage } from '../../api/events';
import { queryClient } from '../../api/query-client';
import { authKeys } from '../auth/api';
import { fileKeys } from './api';
import { applyFileMessages } from './use-listing';

/** File messages wait this long to be applied together (a bulk operation sends thousands). */
const BATCH_MS = 100;

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
  const flush = () => {
    timer = null;
    const batch = queue;
    queue = [];
    applyFileMessages(queryClient, batch);
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
