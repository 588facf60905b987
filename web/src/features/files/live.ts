import { onLiveMessage } from '../../api/events';
import { queryClient } from '../../api/query-client';
import { authKeys } from '../auth/api';
import { fileKeys } from './api';
import { applyFileMessage } from './use-listing';

let installed = false;

/**
 * Keeps every cached listing true to the live event stream, whether or not it is on screen:
 * file messages patch the listings, a finished index rebuild reloads them (API-NOTES §2).
 */
export function installLiveListings(): void {
  if (installed) return;
  installed = true;
  onLiveMessage('fileChange', (message) => applyFileMessage(queryClient, message));
  onLiveMessage('synced', (message) => {
    const body = message.body as { syncPercent?: number } | null;
    if (body?.syncPercent === 100) {
      void queryClient.invalidateQueries({ queryKey: fileKeys.all });
      void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
    }
  });
}
