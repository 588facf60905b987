import { createHash, randomBytes } from 'node:crypto';
import { ErrorCode } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter, forbidden, notLoggedIn } from '../../lib/errors.ts';
import { newToken, sha256 } from '../../lib/ids.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import {
  base32Decode,
  base32Encode,
  matchingStep,
  newTotpSecret,
  otpauthUri,
} from '../../lib/totp.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { UserRow, UsersService } from '../users/users.service.ts';
import type { UsersRepo } from '../users/users.repo.ts';
import { tooManyAttempts, type AttemptLimiter } from './attempt-limiter.ts';
import { MfaChallengeRepo } from './auth.repo.ts';

/** How long the step between a right password and its code lasts. */
const CHALLENGE_TTL_MS = 5 * 60_000;
/** Codes one challenge takes before the password must be given again. */
const CHALLENGE_TRIES = 5;
/** Wrong codes per account in 15 minutes, whichever challenge they come through. */
const CODE_LIMIT = { limit: 10, windowMs: 15 * 60_000 };
const RECOVERY_CODES = 10;
const ISSUER = 'Nimbus';

export type ChallengePurpose = 'verify' | 'enrol';

const wrongCode = () => new AppError(ErrorCode.ERROR, 'Wrong or already used code', undefined, 401);
const expired = () =>
  notLoggedIn('The sign-in step has expired or was used up; sign in with your password again');

/** Recovery codes are compared folded: upper case, without the dash. */
const foldRecovery = (code: string) => code.toUpperCase().replace(/[^A-Z2-7]/g, '');
const hashRecovery = (code: string) =>
  createHash('sha256').update(foldRecovery(code)).digest('hex');

/**
 * Two-factor sign-in with time-based codes (TOTP): enrolment with the secret shown once as a QR
 * code, sign-in in two steps, forced enrolment, an administrator's reset. Secrets are sealed at
 * rest; each code is accepted once (its time step is claimed in one conditional statement);
 * ten recovery codes are shown once at enrolment and each works once.
 */
export class MfaService {
  private readonly challenges: MfaChallengeRepo;

  constructor(
    db: Db,
    private readonly users: UsersService,
    private readonly userRows: UsersRepo,
    private readonly settings: SettingsService,
    private readonly attempts: AttemptLimiter,
    private readonly box: SecretBox,
  ) {
    this.challenges = new MfaChallengeRepo(db);
  }

  forced(): Promise<boolean> {
    return this.settings.get('mfaForceEnable');
  }

  async setForced(actor: Actor, on: boolean): Promise<void> {
    requireAuthority(actor, 'cloud:set:sync');
    await this.settings.set('mfaForceEnable', on);
  }

  /** A fresh secret to enrol with (nothing is stored until a code proves the app has it). */
  async setup(user: UserRow): Promise<{
    mfaEnable: boolean;
    secret: string;
    qrCodeImageUri: string;
    mfaForceEnable: boolean;
  }> {
    const mfaForceEnable = await this.forced();
    if (user.mfaEnabled) return { mfaEnable: true, secret: '', qrCodeImageUri: '', mfaForceEnable };
    const secret = newTotpSecret();
    return {
      mfaEnable: false,
      secret,
      qrCodeImageUri: otpauthUri(ISSUER, user.username, secret),
      mfaForceEnable,
    };
  }

  /**
   * Turn two-factor sign-in on with a code from the app: the recovery codes, shown this once.
   * The account's other sessions and its access tokens end (they were had without a code);
   * `keepSessionId` is the session turning it on.
   */
  async enable(
    user: UserRow,
    secret: string,
    code: string,
    keepSessionId?: string,
  ): Promise<string[]> {
    if (user.mfaEnabled) throw new AppError(ErrorCode.EXISTS, 'Two-factor sign-in is on already');
    const clean = secret.toUpperCase().replace(/\s/g, '');
    try {
      if (base32Decode(clean).length < 10) throw new Error('short');
    } catch {
      throw badParameter('secret: not a secret this page gave out');
    }
    const step = await this.guarded(user, () => matchingStep(clean, code, Date.now()));
    if (step === null) throw wrongCode();
    const recovery = Array.from({ length: RECOVERY_CODES }, () => {
      const text = base32Encode(randomBytes(7)).slice(0, 10);
      return `${text.slice(0, 5)}-${text.slice(5)}`;
    });
    await this.userRows.setMfa(user.id, {
      mfaSecret: this.box.seal(clean),
      mfaEnabled: 1,
      mfaRecovery: JSON.stringify(recovery.map(hashRecovery)),
      mfaLastStep: step,
    });
    await this.users.endAccess(user.id, keepSessionId);
    return recovery;
  }

  /**
   * Turn it off: the account's password and a current code (or a recovery code) are needed,
   * so neither a stolen session nor a phone alone takes the second factor away.
   */
  async disable(user: UserRow, password: string, code: string): Promise<void> {
    if (!(await this.users.confirmOwnPassword(user.id, password)))
      throw new AppError(ErrorCode.WARNING, 'The password is wrong');
    if (!user.mfaEnabled) return;
    if (!(await this.checkCode(user, code))) throw wrongCode();
    await this.clear(user.id);
  }

  /**
   * An administrator turns a user's two-factor sign-in off (a lost phone), or everybody's
   * (without a user): each then signs in with the password alone, or enrols again when forced.
   */
  async reset(actor: Actor, userId?: string): Promise<void> {
    requireAuthority(actor, 'cloud:set:sync');
    if (userId === undefined) {
      if (!actor.isCreator)
        throw forbidden('Only the creator resets everybody’s two-factor sign-in');
      await this.userRows.clearAllMfa();
      return;
    }
    const user = await this.users.accountById(userId);
    if (!user) throw new AppError(ErrorCode.USER_NOT_FOUND, 'No such user');
    if (user.isCreator && !actor.isCreator)
      throw new AppError(ErrorCode.PERMISSION_DENIED, 'Only the creator resets the creator');
    await this.clear(user.id);
  }

  private clear(userId: string): Promise<void> {
    return this.userRows.setMfa(userId, {
      mfaSecret: null,
      mfaEnabled: 0,
      mfaRecovery: null,
      mfaLastStep: null,
    });
  }

  // ---- the sign-in step --------------------------------------------------------------------

  /** After a right password: the token of the second step. */
  async challenge(userId: string, purpose: ChallengePurpose, remember: boolean): Promise<string> {
    const token = newToken();
    const now = Date.now();
    await this.challenges.removeExpired(now);
    await this.challenges.insert({
      id: sha256(token),
      userId,
      purpose,
      remember: remember ? 1 : 0,
      expiresAt: now + CHALLENGE_TTL_MS,
    });
    return token;
  }

  /** The account a live challenge of this purpose was made for, counting one try against it. */
  async openChallenge(
    token: string,
    username: string,
    purpose: ChallengePurpose,
  ): Promise<{ user: UserRow; remember: boolean; id: string }> {
    const id = sha256(token);
    const row = await this.challenges.find(id);
    if (!row || row.purpose !== purpose || row.expiresAt < Date.now()) throw expired();
    const user = await this.users.accountById(row.userId);
    if (!user || user.username.toLowerCase() !== username.trim().toLowerCase()) throw expired();
    if (!(await this.challenges.spendAttempt(id, CHALLENGE_TRIES))) {
      await this.challenges.remove(id);
      throw expired();
    }
    return { user, remember: row.remember === 1, id };
  }

  closeChallenge(id: string): Promise<void> {
    return this.challenges.remove(id);
  }

  /** A code of the account's app, or one of its recovery codes; each works once. */
  async checkCode(user: UserRow, code: string): Promise<boolean> {
    const given = code.trim();
    if (/^\d{6}$/.test(given)) {
      if (!user.mfaSecret) return false;
      const secret = this.box.unseal(user.mfaSecret);
      const step = await this.guarded(user, () => matchingStep(secret, given, Date.now()));
      return step !== null && (await this.userRows.claimMfaStep(user.id, step));
    }
    const hashed = hashRecovery(given);
    const used = await this.guarded(user, () => {
      const list = JSON.parse(user.mfaRecovery ?? '[]') as string[];
      return list.includes(hashed) ? list : null;
    });
    if (!used || !user.mfaRecovery) return false;
    return this.userRows.replaceRecovery(
      user.id,
      user.mfaRecovery,
      JSON.stringify(used.filter((h) => h !== hashed)),
    );
  }

  /** Check a code under the account's guess limit: a right one gives its attempt back. */
  private async guarded<T>(user: UserRow, check: () => T | null): Promise<T | null> {
    const rule = { key: `mfa:${user.id}`, ...CODE_LIMIT };
    const reservation = await this.attempts.reserve([rule]);
    if (!reservation.granted) throw tooManyAttempts('wrong codes', reservation.retryAfterMs);
    const result = check();
    if (result !== null) await this.attempts.release(reservation);
    return result;
  }
}
