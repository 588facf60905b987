import { summarize } from './progress';
import { useUploadStore } from './store';
import { confirmExit, uploader } from './uploader';

/**
 * Closing the uploader stops and forgets every upload; with work left it asks first
 * (spec §5: 'still files uploading, sure to exit?'). Resolves whether it closed.
 */
export async function closeUploader(): Promise<boolean> {
  const summary = summarize(useUploadStore.getState().items);
  if ((summary.unfinished > 0 || summary.paused > 0) && !(await confirmExit())) return false;
  uploader.cancelAll();
  return true;
}
