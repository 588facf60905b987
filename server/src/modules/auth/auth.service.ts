import { ErrorCode, TOKEN_HEADER, USERNAME_PATTERN, type LoginResult } from '@nimbus/contract';
import type { Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/password.ts';
import { ADMIN_ROLE } from '../menus/menu-seed.ts';
import type { UserRow, UsersService } from '../users/users.service.ts';
import { tooManyAttempts, type AttemptLimiter, type AttemptRule } from './attempt-limiter.ts';
import { SIGN_IN_MEMORY_MS, type SessionService } from './session.service.ts';
import type { AccessTokenService } from './access-token.service.ts';
import type { LdapService } from './ldap.service.ts';
import type { MfaService } from './mfa.service.ts';

/**
 * While LDAP sign-in is on, a refused sign-in is answered no sooner than this after it began,
 * so a directory that answers slower or faster than scrypt takes does not tell which path a
 * name took. (Without a directory every path is the same scrypt work and nothing else.)
 */
export const SIGN_IN_FLOOR_MS = 250;

const sleepUntil = (time: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));

const WINDOW_MS = 15 * 60_000;

/**
 * Sign-in guesses: five per username, five per username from one address, twenty per address,
 * each counted until 15 minutes pass without one. Usernames are folded to lower case.
 */
export function signInRules(username: string, ip: string) {
  const name = username.toLowerCase();
  return {
    address: { key: `ip:${ip}`, limit: 20, windowMs: WINDOW_MS },
    pair: { key: `user:${name}@${ip}`, limit: 5, windowMs: WINDOW_MS },
    user: { key: `user:${name}`, limit: 5, windowMs: WINDOW_MS },
  } satisfies Record<string, AttemptRule>;
}

const signInRefused = (retryAfterMs: number) =>
  tooManyAttempts('failed sign-in attempts', retryAfterMs);

export interface LoginInput {
  username: string;
  password: string;
  rememberMe: boolean;
  ip: string;
  userAgent?: string;
}

/** What the second step of a sign-in carries besides its code. */
export interface SecondStep {
  username: string;
  mfaToken: string;
  rememberMe: boolean;
  ip: string;
  userAgent?: string;
}

export class AuthService {
  private lastSessionPrune = 0;

  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionService,
    private readonly attempts: AttemptLimiter,
    private readonly accessTokens: AccessTokenService,
    private readonly mfa: MfaService,
    private readonly ldap: LdapService,
  ) {}

  /**
   * A password is checked only after an attempt is reserved for the username, the username from
   * this address and the address. A username locked by others' failures still lets its owner
   * in from an address the account signed in from in the last 30 days, if that address has not
   * used up its own five attempts: nobody can lock an owner out from where they usually sign in.
   */
  async login(input: LoginInput): Promise<LoginResult & { token: string }> {
    const started = Date.now();
    const username = input.username.trim();
    const rules = signInRules(username, input.ip);
    const user = await this.users.accountByUsername(username);
    let reservation = await this.attempts.reserve([rules.address, rules.pair, rules.user]);
    if (
      !reservation.granted &&
      reservation.refused.key === rules.user.key &&
      user &&
      (await this.sessions.signedInFrom(user.id, input.ip, Date.now() - SIGN_IN_MEMORY_MS))
    ) {
      reservation = await this.attempts.reserve([rules.address, rules.pair]);
    }
    if (!reservation.granted) throw signInRefused(reservation.retryAfterMs);
    let account = user;
    const directory = await this.ldap.enabled();
    const floor = directory ? started + SIGN_IN_FLOOR_MS : 0;
    try {
      if (!(await this.checkPassword(user, username, input.password, directory)))
        account = undefined;
      else if (!account) account = await this.provisionFromLdap(username);
      else if (account.authSource !== 'ldap')
        await this.users.strengthenHash(account, input.password);
    } catch (err) {
      await this.attempts.release(reservation);
      await sleepUntil(floor);
      throw err;
    }
    if (!account) {
      await sleepUntil(floor);
      throw new AppError(ErrorCode.ERROR, 'Wrong username or password', undefined, 401);
    }
    // a right password is not a guess: its attempt is given back (failures stay counted)
    await this.attempts.release(reservation);
    // the second step: a code of the app, or enrolment when the drive requires it
    if (account.mfaEnabled) {
      const mfaToken = await this.mfa.challenge(account.id, 'verify', input.rememberMe);
      return { token: '', mfaRequired: true, mfaToken };
    }
    if (await this.mfa.forced()) {
      const mfaToken = await this.mfa.challenge(account.id, 'enrol', input.rememberMe);
      return { token: '', mfaForceEnable: true, mfaToken };
    }
    return this.startSession(account, input.rememberMe, input);
  }

  /**
   * Whether the password is right. A local account checks its own hash; an LDAP one, or a name
   * not known here while LDAP sign-in is on, asks the directory. Every path verifies exactly one
   * scrypt hash (the directory's paths a fixed one, alongside the directory's answer, which is
   * waited for even when the directory fails), so none is quicker than a local wrong password.
   */
  private async checkPassword(
    user: UserRow | undefined,
    username: string,
    password: string,
    directoryOn: boolean,
  ): Promise<boolean> {
    if (user && user.authSource !== 'ldap') return verifyPassword(password, user.passwordHash);
    const dummy = verifyPassword(password, this.users.placeholderHash);
    const directory = directoryOn
      ? this.ldap.verify(user?.username ?? username, password)
      : Promise.resolve(false);
    const [answer] = await Promise.allSettled([directory, dummy]);
    if (answer.status === 'rejected') throw answer.reason;
    return answer.value;
  }

  /** `/public/verify-totp`: the code that completes a sign-in of an account with two factors. */
  async verifyTotp(
    input: SecondStep & { mfaCode: string },
  ): Promise<LoginResult & { token: string }> {
    const open = await this.mfa.openChallenge(input.mfaToken, input.username, 'verify');
    if (!(await this.mfa.checkCode(open.user, input.mfaCode)))
      throw new AppError(ErrorCode.ERROR, 'Wrong or already used code', undefined, 401);
    await this.mfa.closeChallenge(open.id);
    return this.startSession(open.user, open.remember || input.rememberMe, input);
  }

  /** `/public/init-verify-totp`: forced enrolment, then in. */
  async initVerifyTotp(
    input: SecondStep & { mfaSecret: string; mfaCode: string },
  ): Promise<LoginResult & { token: string; recoveryCodes: string[] }> {
    const open = await this.mfa.openChallenge(input.mfaToken, input.username, 'enrol');
    const recoveryCodes = await this.mfa.enable(open.user, input.mfaSecret, input.mfaCode);
    await this.mfa.closeChallenge(open.id);
    const session = await this.startSession(open.user, open.remember || input.rememberMe, input);
    return { ...session, recoveryCodes };
  }

  /** The account of an enrolment step that has not finished (its setup page). */
  async enrolling(mfaToken: string, username: string) {
    const open = await this.mfa.openChallenge(mfaToken, username, 'enrol');
    return open.user;
  }

  private async startSession(
    user: { id: string; username: string },
    remember: boolean,
    from: { ip: string; userAgent?: string },
  ): Promise<LoginResult & { token: string }> {
    const token = await this.sessions.create(user.id, remember, {
      ip: from.ip,
      userAgent: from.userAgent,
    });
    await this.pruneSessions();
    return { token, [TOKEN_HEADER]: token, userId: user.id, username: user.username };
  }

  /**
   * The account of someone the directory let in for the first time, with LDAP's default roles.
   * A directory name Nimbus cannot hold as a username is refused with the reason.
   */
  private async provisionFromLdap(username: string) {
    if (!USERNAME_PATTERN.test(username))
      throw new AppError(
        ErrorCode.ERROR,
        'This directory account’s name cannot be a Nimbus username (letters, digits, "_", "-", ".")',
        undefined,
        401,
      );
    return this.users.provisionLdap(username, await this.ldap.defaultRoles());
  }

  /** Sessions past use are removed at a sign-in, at most once an hour. */
  private async pruneSessions(): Promise<void> {
    if (Date.now() - this.lastSessionPrune < 3600_000) return;
    this.lastSessionPrune = Date.now();
    await this.sessions.prune();
  }

  async logout(actor: Actor): Promise<void> {
    // signing out with an access token ends nothing: the token is deleted in the settings
    if (actor.accessToken || !actor.sessionId) return;
    await this.sessions.revoke(actor.sessionId);
  }

  /** The actor a background job works for, with the user's current grants. */
  async actorFor(userId: string): Promise<Actor | null> {
    const user = await this.users.accountById(userId);
    if (!user) return null;
    const grants = await this.users.grantsOf(user.id);
    return {
      id: user.id,
      username: user.username,
      isCreator: user.isCreator === 1,
      isAdmin: user.isCreator === 1 || grants.roleCodes.includes(ADMIN_ROLE.code),
      authorities: new Set(grants.authorities),
      sessionId: '',
    };
  }

  /** The actor behind a session token or an access token, or null. */
  async authenticate(token: string): Promise<{ actor: Actor; refreshedToken?: string } | null> {
    const access = await this.accessTokens.resolve(token);
    const session = access
      ? { userId: access.userId, sessionId: '', refreshedToken: undefined }
      : await this.sessions.resolve(token);
    if (!session) return null;
    const user = await this.users.accountById(session.userId);
    if (!user) return null;
    const grants = await this.users.grantsOf(user.id);
    const isAdmin = user.isCreator === 1 || grants.roleCodes.includes(ADMIN_ROLE.code);
    return {
      actor: {
        id: user.id,
        username: user.username,
        isCreator: user.isCreator === 1,
        isAdmin,
        authorities: new Set(grants.authorities),
        sessionId: session.sessionId,
        ...(access ? { accessToken: access.token } : {}),
      },
      refreshedToken: session.refreshedToken,
    };
  }
}
