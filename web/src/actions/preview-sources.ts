import { TOKEN_HEADER, type Endpoint, type QueryIn } from '@nimbus/contract';
import { API_BASE } from '../api/client';
import { endpointAddress } from '../api/endpoints';
import { toQueryString } from '../api/query-string';
import { useSessionStore } from '../stores/session';
import { fileUrl, sharedDownloadUrl, sharedPreviewUrl } from '../api/bytes';
import { shareTokenFor } from '../stores/share-tokens';
import type { PreviewSource } from './viewers';

const sessionToken = (): Record<string, string> => {
  const token = useSessionStore.getState().token;
  return token ? { [TOKEN_HEADER]: token } : {};
};

/**
 * The signed-in user's own files, and the files of their mounts (read by id). Without downloads
 * (the role's, or a mounted share's) the viewers only preview.
 */
export function ownerSource(canDownload = true): PreviewSource {
  return {
    kind: 'owner',
    bytesUrl: (item) => fileUrl(item),
    downloadUrl: (item) => (canDownload ? fileUrl(item, true) : null),
    // addresses carry no token: the session's cookie signs them in
    api: (path, query = {}) => `${API_BASE}${path}${toQueryString(query)}`,
    headers: sessionToken,
  };
}

/** A share as a visitor (or a signed-in mounter) opens it on its page. */
export function shareSource(shareId: string, canDownload: boolean): PreviewSource {
  const shareToken = shareTokenFor(shareId) ?? '';
  const shareCredentials = (): Record<string, string> => ({
    shareId,
    ...(shareToken ? { 'share-token': shareToken } : {}),
  });
  const credentials = (): Record<string, string> => ({
    ...shareCredentials(),
    ...sessionToken(),
  });
  return {
    kind: 'share',
    shareId,
    shareToken,
    bytesUrl: (item) => sharedPreviewUrl(shareId, item),
    downloadUrl: (item) => (canDownload ? sharedDownloadUrl(shareId, item) : null),
    api: (path, query = {}) =>
      // a signed-in mounter's session comes from the cookie, never the address
      `${API_BASE}/public/s${path}${toQueryString({ ...query, ...shareCredentials() })}`,
    headers: credentials,
  };
}

/**
 * The address of a GET for the files of `source`, with the credentials a plain link or a
 * `fetch()` needs: the owner's endpoint (the session's cookie signs it in), or for a share
 * visitor its public twin, the share's id and token added to the query (a signed-in mounter's
 * session comes from the cookie, never the address).
 */
export function sourceAddress<Own extends Endpoint, Visitor extends Endpoint>(
  source: PreviewSource,
  twins: { own: Own; visitor: Visitor },
  query: QueryIn<Own>,
): string {
  if (source.kind === 'owner') return endpointAddress(twins.own, query);
  const credentials = {
    shareId: source.shareId,
    ...(source.shareToken ? { 'share-token': source.shareToken } : {}),
  };
  return endpointAddress(twins.visitor, {
    ...(query as Record<string, unknown>),
    ...credentials,
  } as QueryIn<Visitor>);
}
