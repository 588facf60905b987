import type { AccessTokenScope } from '@nimbus/contract';

/** Methods that only read: the API's (but see `changes`) and WebDAV's. */
const API_READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const DAV_READS = new Set(['GET', 'HEAD', 'OPTIONS', 'PROPFIND']);

/** A request as the scope rule sees it. */
export type TokenUse =
  | {
      surface: 'api';
      method: string;
      /** A GET that changes something (the compatible API's `/move`, `/rename`…). */
      changes?: boolean;
      /** A POST that only reads (a form's download, a check). */
      readsOnly?: boolean;
      /** The account's security: password, two-factor sign-in, access tokens. */
      sessionOnly?: boolean;
    }
  | { surface: 'webdav'; method: string };

/**
 * The one rule of what an access token may do: why a token of this scope may not make this
 * request, or null when it may. A session is never asked: it may do all its owner may.
 */
export function tokenRefusal(scope: AccessTokenScope, use: TokenUse): string | null {
  const method = use.method.toUpperCase();
  if (use.surface === 'webdav') {
    if (scope === 'read' && !DAV_READS.has(method)) return 'This access token only reads';
    return null;
  }
  if (scope === 'webdav') return 'This access token works over WebDAV only';
  if (use.sessionOnly)
    return 'An access token cannot change the account’s security: sign in to do this';
  const reads = use.readsOnly === true || (API_READS.has(method) && use.changes !== true);
  if (scope === 'read' && !reads) return 'This access token only reads';
  return null;
}
