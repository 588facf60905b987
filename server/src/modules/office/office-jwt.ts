import { createHmac, timingSafeEqual } from 'node:crypto';

// The JWTs the OnlyOffice document server reads and sends (API-NOTES §1.15): HS256 under the
// secret the administrator set, nothing else accepted.

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

const mac = (secret: string, input: string) =>
  createHmac('sha256', secret).update(input).digest('base64url');

/** A compact HS256 JWT of `payload`. */
export function signJwt(payload: unknown, secret: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${HEADER}.${body}.${mac(secret, `${HEADER}.${body}`)}`;
}

/**
 * The payload of a token signed with `secret`, or null: another algorithm, a bad signature, a
 * token past its `exp` or one that does not parse.
 */
export function verifyJwt(
  token: string,
  secret: string,
  now = Date.now(),
): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [head, body, signature] = parts as [string, string, string];
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as {
      alg?: unknown;
    };
    if (header.alg !== 'HS256') return null;
    const expected = Buffer.from(mac(secret, `${head}.${body}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return null;
    const claims = payload as Record<string, unknown>;
    if (typeof claims.exp === 'number' && claims.exp * 1000 < now) return null;
    return claims;
  } catch {
    return null;
  }
}
