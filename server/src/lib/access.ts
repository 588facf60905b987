import { forbidden } from './errors.ts';

/** The signed-in person a request acts for. */
export interface Actor {
  id: string;
  username: string;
  isCreator: boolean;
  isAdmin: boolean;
  authorities: ReadonlySet<string>;
  sessionId: string;
}

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
