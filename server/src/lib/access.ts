import { SEED_MENUS, USER_ROLE_MENUS, type AccessTokenScope } from '@nimbus/contract';
import { forbidden } from './errors.ts';

/** The signed-in person a request acts for. */
export interface Actor {
  id: string;
  username: string;
  isCreator: boolean;
  isAdmin: boolean;
  authorities: ReadonlySet<string>;
  /** The session the request came with ('' for background work and access tokens). */
  sessionId: string;
  /** Lock tokens the request sent (a WebDAV client holding a lock): its writes may pass them. */
  lockTokens?: ReadonlySet<string>;
  /** The access token the request came with instead of a session, and what it may do. */
  accessToken?: { id: string; scope: AccessTokenScope };
}

/** The authority that lets a file's bytes leave as a download (modules/files/bytes-grant.ts). */
export const DOWNLOAD_AUTHORITY = 'cloud:file:download';

/** True when the actor holds the authority; administrators hold every authority. */
export function can(actor: Actor, authority: string): boolean {
  return actor.isAdmin || actor.authorities.has(authority);
}

/** The one access check every service uses for authority-gated work. */
export function requireAuthority(actor: Actor, authority: string): void {
  if (!can(actor, authority)) throw forbidden();
}

/** A user may act on their own record; otherwise the authority is needed. */
export function requireSelfOr(actor: Actor, userId: string, authority: string): void {
  if (actor.id !== userId) requireAuthority(actor, authority);
}

/** What every ordinary user holds (the built-in user role as shipped): acting on one's own files. */
const ORDINARY_AUTHORITIES: ReadonlySet<string> = new Set(
  SEED_MENUS.filter((m) => USER_ROLE_MENUS.includes(m.id))
    .map((m) => m.authority)
    .filter((a): a is string => !!a),
);

/**
 * Whether the actor may give these authorities (to a user or a role), or change someone who holds
 * them: administrators always; anyone else when each is an ordinary user's or one they hold, so
 * no delegated administrator can give themselves or anyone more than they have.
 */
export function mayGive(actor: Actor, authorities: Iterable<string | null>): boolean {
  if (actor.isAdmin) return true;
  for (const a of authorities) {
    if (a && !ORDINARY_AUTHORITIES.has(a) && !actor.authorities.has(a)) return false;
  }
  return true;
}
