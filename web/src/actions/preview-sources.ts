import { TOKEN_HEADER, type Endpoint, type QueryIn } from '@nimbus/contract';
import { endpointAddress } from '../api/endpoints';
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
    api: (route, query) => endpointAddress(route.owner, query),
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
    // a signed-in mounter's session comes from the cookie, never the address
    api: (route, query) =>
      endpointAddress(route.visitor, {
        ...(query as Record<string, unknown>),
        ...shareCredentials(),
      }),
    headers: credentials,
  };
}

/**
 * The address of a GET for the files of `source`, with the credentials a plain link or a
 * `fetch()` needs: the owner's endpoint (the session's cookie signs it in), or for a share
 * visitor its public twin, the share's id and token added to the query (a signed-in mounter's
 * session comes from the cookie, never the address).
 */
export function sourceAddress<Owner extends Endpoint, Visitor extends Endpoint>(
  source: PreviewSource,
  twins: { owner: Owner; visitor: Visitor },
  query: QueryIn<Owner>,
): string {
  if (source.kind === 'owner') return endpointAddress(twins.owner, query);
  const credentials = {
    shareId: source.shareId,
    ...(source.shareToken ? { 'share-token': source.shareToken } : {}),
  };
  return endpointAddress(twins.visitor, {
    ...(query as Record<string, unknown>),
    ...credentials,
  } as QueryIn<Visitor>);
}
