import type { FastifyRequest } from 'fastify';
import type { ShareCredentials } from './share-access.ts';

const SHARE_TOKEN = 'share-token';

function first(value: unknown): string | undefined {
  const v = Array.isArray(value) ? (value[0] as unknown) : value;
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The share token a request carries: the `share-token` header, or the query of a file URL. */
export function shareTokenOf(request: FastifyRequest): string | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return (
    first(request.headers[SHARE_TOKEN]) ?? first(query[SHARE_TOKEN]) ?? first(query.shareToken)
  );
}

/** The share a request names (`share` or `shareId` in the query, else the `shareId` header). */
export function shareAddressOf(request: FastifyRequest): string {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = (request.body ?? {}) as Record<string, unknown>;
  return (
    first(query.share) ??
    first(query.shareId) ??
    first(body.shareId) ??
    first(request.headers.shareid) ??
    ''
  );
}

export function credentialsOf(request: FastifyRequest): ShareCredentials {
  return { share: shareAddressOf(request), token: shareTokenOf(request), actor: request.actor };
}
