import {
  downloadApi,
  imagesVisitorApi,
  TOKEN_HEADER,
  type FileItem,
  type PublicFileView,
} from '@nimbus/contract';
import { useSessionStore } from '../stores/session';
import { shareTokenFor } from '../stores/share-tokens';
import { endpointAddress, endpointUrl } from './endpoints';
import { toQueryString, type QueryParams } from './query-string';

/**
 * The addresses of a file's bytes, the owner's and a share visitor's, and the downloads the
 * browser starts: every feature that shows or saves a file reads them here.
 */

/**
 * The bytes of a file by id. Plain links, `<img>` and downloads are signed in by the session's
 * cookie (sent to `/api` by the browser itself): no token rides in the address, where logs,
 * history and referrers would keep it.
 */
export function fileUrl(item: Pick<FileItem, 'id' | 'name'>, download = false): string {
  return endpointUrl(downloadApi.fileById, download ? { o: 'download' } : {}, {
    id: item.id,
    name: item.name,
  });
}

/**
 * Downloads a zip of several items or a folder. The ids are posted as a form, since a long
 * selection does not fit a link; the browser saves the answer (into a hidden frame, so an
 * error page never replaces the app).
 */
export function downloadPackage(fileIds: string[]): void {
  const frameName = 'nb-download-frame';
  if (!document.querySelector(`iframe[name="${frameName}"]`)) {
    const frame = document.createElement('iframe');
    frame.name = frameName;
    frame.hidden = true;
    frame.title = 'download';
    document.body.appendChild(frame);
  }
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = endpointAddress(downloadApi.packageDownloadForm);
  form.target = frameName;
  form.hidden = true;
  const fields: Record<string, string> = {
    fileIds: fileIds.join(','),
    [TOKEN_HEADER]: useSessionStore.getState().token,
  };
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  form.remove();
}

/** Starts a download in the browser without leaving the page. */
export function startDownload(url: string, name = ''): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

// ---- a share's files, as a visitor reaches them ---------------------------------------------

/**
 * The query that lets a plain link or `<img>` reach a shared file (GET only). A signed-in
 * mounter's session comes from the cookie the browser sends by itself, never the address.
 */
function bytesQuery(shareId: string, extra: QueryParams = {}): string {
  const token = shareTokenFor(shareId);
  return toQueryString({
    shareId,
    ...extra,
    ...(token ? { 'share-token': token } : {}),
  });
}

const named = (name: string) => encodeURIComponent(name);

/** Inline bytes (image preview, players). */
export const sharedPreviewUrl = (shareId: string, item: Pick<PublicFileView, 'id' | 'name'>) =>
  `/api/public/s/preview/${named(item.name)}${bytesQuery(shareId, { fileId: item.id })}`;

export const sharedDownloadUrl = (shareId: string, item: Pick<PublicFileView, 'id' | 'name'>) =>
  `/api/public/s/download/${named(item.name)}${bytesQuery(shareId, { fileId: item.id })}`;

export const sharedThumbnailUrl = (shareId: string, item: Pick<PublicFileView, 'id'>) =>
  `${endpointAddress(imagesVisitorApi.thumbnail)}${bytesQuery(shareId, { id: item.id })}`;

export const sharedZipUrl = (shareId: string, fileIds: string[]) =>
  `/api/public/s/packageDownload${bytesQuery(shareId, { fileIds })}`;
