import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../lib/access.ts';
import { sha256 } from '../../lib/ids.ts';
import { verifyPassword } from '../../lib/password.ts';
import type { AccessTokenService } from '../auth/access-token.service.ts';
import { ACCESS_TOKEN_PREFIX } from '../auth/access-token.service.ts';
import { tooManyAttempts, type AttemptLimiter } from '../auth/attempt-limiter.ts';
import { signInRules, type AuthService } from '../auth/auth.service.ts';
import { tokenRefusal } from '../auth/token-scope.ts';
import type { UsersService } from '../users/users.service.ts';
import { DavError } from './webdav-errors.ts';
import { header } from './webdav-request.ts';

/** What a WebDAV client sends with each request (HTTP Basic) and where it comes from. */
export interface DavCredentials {
  username: string;
  secret: string;
  ip: string;
}

/**
 * Who a WebDAV request acts for, or null when its credentials are wrong. Throws code 22 when
 * the username or the address has used up its guesses.
 */
export type DavAuthenticator = (credentials: DavCredentials) => Promise<Actor | null>;

/** A right password is remembered this long, so every request of a client does not pay scrypt. */
const REMEMBER_MS = 5 * 60_000;
const MAX_REMEMBERED = 10_000;

interface Remembered {
  userId: string;
  /** The password hash it was checked against: a changed password forgets it. */
  passwordHash: string;
  until: number;
}

/**
 * Basic authentication with the account's password (not for accounts with two factors: they
 * use an access token) or with an access token in the password field. Every check of a secret
 * goes through the sign-in guess limiter first, so failures are throttled like the web login.
 */
export function basicAuthenticator(deps: {
  users: UsersService;
  attempts: AttemptLimiter;
  accessTokens: AccessTokenService;
  auth: AuthService;
}): DavAuthenticator {
  const remembered = new Map<string, Remembered>();
  return async ({ username: given, secret, ip }) => {
    const username = given.trim();
    if (!username || !secret || username.length > 128 || secret.length > 1024) return null;
    const user = await deps.users.accountByUsername(username);
    const key = sha256(`${username.toLowerCase()}\0${secret}`);
    const known = remembered.get(key);
    if (
      known &&
      user &&
      known.userId === user.id &&
      known.passwordHash === user.passwordHash &&
      !user.mfaEnabled &&
      known.until > Date.now()
    )
      return deps.auth.actorFor(user.id);

    const rules = signInRules(username, ip);
    if (secret.startsWith(ACCESS_TOKEN_PREFIX)) {
      // a token cannot be guessed: a right one is let in, a wrong one counts as a failure
      const token = await deps.accessTokens.resolve(secret);
      if (user && token && token.userId === user.id) {
        const actor = await deps.auth.actorFor(user.id);
        return actor && { ...actor, accessToken: token.token };
      }
      const counted = await deps.attempts.reserve([rules.address, rules.pair, rules.user]);
      if (!counted.granted) throw tooManyAttempts('failed sign-in attempts', counted.retryAfterMs);
      return null;
    }
    const reservation = await deps.attempts.reserve([rules.address, rules.pair, rules.user]);
    if (!reservation.granted)
      throw tooManyAttempts('failed sign-in attempts', reservation.retryAfterMs);
    let valid: boolean;
    try {
      valid = await verifyPassword(secret, user?.passwordHash ?? deps.users.placeholderHash);
    } catch (err) {
      await deps.attempts.release(reservation);
      throw err;
    }
    // an account with two factors is not opened by its password alone: it uses a token
    if (valid && user?.mfaEnabled) {
      await deps.attempts.release(reservation);
      return null;
    }
    if (!user || !valid) return null;
    await deps.attempts.release(reservation);
    const passwordHash = await deps.users.strengthenHash(user, secret);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(key, {
      userId: user.id,
      passwordHash,
      until: Date.now() + REMEMBER_MS,
    });
    return deps.auth.actorFor(user.id);
  };
}

/** The actor of a request's Basic credentials; null when it brings none that hold. */
export async function signIn(request: FastifyRequest, authenticate: DavAuthenticator) {
  const auth = header(request.raw, 'authorization');
  if (!auth || !/^basic /i.test(auth)) return null;
  const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const actor = await authenticate({
    username: decoded.slice(0, colon),
    secret: decoded.slice(colon + 1),
    ip: request.ip,
  });
  // an access token does what its scope allows (the same rule as the API's)
  const refusal =
    actor?.accessToken &&
    tokenRefusal(actor.accessToken.scope, { surface: 'webdav', method: request.raw.method ?? '' });
  if (refusal) throw new DavError(403, refusal);
  return actor;
}
