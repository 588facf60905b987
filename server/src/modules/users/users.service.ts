import { randomBytes } from 'node:crypto';
import {
  ErrorCode,
  type AccessSummary,
  type UserInfo,
  type UserDefaults,
  type UserListItem,
  type Theme,
} from '@nimbus/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { mayGive, requireAuthority, requireSelfOr, type Actor } from '../../lib/access.ts';
import { AppError, badParameter, exists, forbidden } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import {
  generatePassword,
  hashPassword,
  placeholderHash,
  weakerThan,
  verifyPassword,
} from '../../lib/password.ts';
import { formatDateTime } from '../../lib/time.ts';
import { tooManyAttempts, type AttemptLimiter } from '../auth/attempt-limiter.ts';
import type { AccessTokenService } from '../auth/access-token.service.ts';
import type { SessionService } from '../auth/session.service.ts';
import { ADMIN_ROLE, USER_ROLE } from '../menus/menu-seed.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { UpdateCheckService } from '../health/update-check.service.ts';
import { isUniqueViolation, UsersRepo, type UserFilter, type UserRow } from './users.repo.ts';

export type { UserRow };

/** Guesses of one account's current password: five, counted until 15 minutes pass without one. */
const currentPasswordRule = (userId: string) => ({
  key: `pass:${userId}`,
  limit: 5,
  windowMs: 15 * 60_000,
});

const taken = () => exists('This username is already taken');
const alreadyInitialized = () =>
  new AppError(ErrorCode.PERMISSION_DENIED, 'Nimbus is already initialized');

export interface NewUser {
  username: string;
  password: string;
  showName?: string;
  quota?: number;
  roles?: string[];
}

export interface UserUpdate {
  showName?: string;
  slogan?: string;
  introduction?: string;
  quota?: number;
  roles?: string[];
}

/** Hook for the parts of Nimbus that keep per-user state outside these tables (the file tree). */
export interface UserLifecycle {
  created?(user: UserRow): Promise<void>;
  deleted?(user: UserRow): Promise<void>;
}

/** How long a proof of the current password (POST /valid-old-pass) stands for a change. */
const PROOF_MS = 5 * 60_000;

export class UsersService {
  /** The accounts' rows; the auth module's mfa.service.ts writes their two-factor state. */
  readonly repo: UsersRepo;
  /** Verified where no local hash is checked, with the work a local one takes. */
  readonly placeholderHash: string;
  private readonly lifecycle: UserLifecycle[] = [];
  /** The one username cache: usernames never change, so each is looked up once. */
  private readonly usernames = new Map<string, string>();
  /**
   * Sessions that just proved their user's current password (POST /valid-old-pass), as the
   * original client does before a change that sends only the new one: good once, for a while.
   */
  private readonly passwordProofs = new Map<string, { userId: string; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly sessions: SessionService,
    private readonly accessTokens: AccessTokenService,
    private readonly settings: SettingsService,
    private readonly attempts: AttemptLimiter,
    private readonly updates: UpdateCheckService,
  ) {
    this.repo = new UsersRepo(db);
    this.placeholderHash = placeholderHash(config.passwordCost);
  }

  onLifecycle(hook: UserLifecycle): void {
    this.lifecycle.push(hook);
  }

  /**
   * The username of a user id, for task lists and the search index (undefined for none). Cached
   * here for every module: usernames never change; a deleted user leaves the cache.
   */
  async usernameOf(userId: string): Promise<string | undefined> {
    const known = this.usernames.get(userId);
    if (known) return known;
    const username = (await this.repo.findById(userId))?.username;
    if (username) this.usernames.set(userId, username);
    return username;
  }

  /** Every account, as the owner of a tree (the start-up repair, the index rebuild). */
  owners(): Promise<Array<{ id: string; username: string }>> {
    return this.repo.owners();
  }

  /** The account of a username, matched regardless of case (sign-in). */
  accountByUsername(username: string): Promise<UserRow | undefined> {
    return this.repo.findByUsername(username);
  }

  /** The account of a user id (a session's owner). */
  accountById(userId: string): Promise<UserRow | undefined> {
    return this.repo.findById(userId);
  }

  /** An account's name and the bytes it uses, as its live events carry them (the quota bar). */
  async usage(userId: string): Promise<{ username: string; space: number } | undefined> {
    const row = await this.repo.findById(userId);
    return row && { username: row.username, space: Number(row.usedBytes) };
  }

  /** The `limit` users storing the most bytes, by id, the most first (metrics). */
  mostUsed(limit: number): Promise<Array<{ id: string; usedBytes: number }>> {
    return this.repo.mostUsed(limit);
  }

  /** The role codes and authorities a user holds through their roles. */
  grantsOf(userId: string): Promise<{ roleCodes: string[]; authorities: string[] }> {
    return this.repo.grantsOf(userId);
  }

  /** spec §7 public/has_user: 0 until the first user exists. */
  async userCount(): Promise<number> {
    return this.repo.count();
  }

  /** The first visit creates the creator, an administrator (spec §2 Login: create admin). */
  async initialize(username: string, password: string): Promise<UserRow> {
    if ((await this.repo.count()) > 0) {
      throw new AppError(ErrorCode.PERMISSION_DENIED, 'Nimbus is already initialized');
    }
    return this.create({ username, password, roles: [ADMIN_ROLE.id] }, true);
  }

  /** What a new user gets when the add form leaves a field out: the configured default quota. */
  defaults(actor: Actor): UserDefaults {
    requireAuthority(actor, 'sys:user:add');
    return { quota: this.config.defaultQuotaGb };
  }

  async add(actor: Actor, input: NewUser): Promise<UserListItem> {
    requireAuthority(actor, 'sys:user:add');
    if (input.roles?.length) await this.assertMayGrant(actor, input.roles);
    const user = await this.create(input, false);
    return (await this.toListItems([user]))[0]!;
  }

  /**
   * The account of someone the directory let in for the first time (LDAP): the default roles,
   * no password of its own (an unusable hash: the directory checks the password every time).
   */
  async provisionLdap(username: string, roles: string[]): Promise<UserRow> {
    return this.create(
      { username, password: randomBytes(32).toString('base64url'), roles },
      false,
      'ldap',
    );
  }

  private async create(
    input: NewUser,
    isCreator: boolean,
    authSource: 'local' | 'ldap' = 'local',
  ): Promise<UserRow> {
    const username = input.username.trim();
    if (await this.repo.findByUsername(username)) throw taken();
    const roles =
      input.roles && input.roles.length > 0 ? [...new Set(input.roles)] : [USER_ROLE.id];
    const now = Date.now();
    const row: UserRow = {
      id: newId(),
      username,
      showName: input.showName?.trim() || username,
      passwordHash: await hashPassword(input.password, this.config.passwordCost),
      avatar: null,
      slogan: null,
      introduction: null,
      quotaGb: input.quota ?? this.config.defaultQuotaGb,
      usedBytes: 0,
      isCreator: isCreator ? 1 : 0,
      mfaSecret: null,
      mfaEnabled: 0,
      mfaRecovery: null,
      mfaLastStep: null,
      theme: 'auto',
      passwordChangedAt: now,
      createdAt: now,
      updatedAt: now,
      caseTwin: 0,
      authSource,
    };
    try {
      const refused = await this.repo.create(row, roles, isCreator);
      if (refused === 'initialized') throw alreadyInitialized();
      if (refused === 'missingRoles') throw badParameter('Some roles do not exist');
    } catch (err) {
      // requests at the same moment: the database's unique indexes decide who wins
      if (!isUniqueViolation(err)) throw err;
      throw isCreator ? alreadyInitialized() : taken();
    }
    for (const hook of this.lifecycle) await hook.created?.(row);
    return row;
  }

  async list(actor: Actor, filter: UserFilter): Promise<{ items: UserListItem[]; total: number }> {
    requireAuthority(actor, 'sys:user:list');
    const { rows, total } = await this.repo.list(filter);
    return { items: await this.toListItems(rows), total };
  }

  /** The original's user groups: Nimbus has roles only, so there are none to list. */
  groups(actor: Actor): [] {
    requireAuthority(actor, 'sys:user:list');
    return [];
  }

  async get(actor: Actor, id: string): Promise<UserListItem> {
    requireSelfOr(actor, id, 'sys:user:list');
    const row = await this.mustFind(id);
    return (await this.toListItems([row]))[0]!;
  }

  async update(actor: Actor, id: string, input: UserUpdate): Promise<UserListItem> {
    const adminFields = input.quota !== undefined || input.roles !== undefined;
    if (adminFields) requireAuthority(actor, 'sys:user:update');
    else requireSelfOr(actor, id, 'sys:user:update');
    const row = await this.mustFind(id);
    await this.assertMayManage(actor, row);
    if (input.roles && row.isCreator === 1 && !input.roles.includes(ADMIN_ROLE.id)) {
      throw badParameter('The creator always keeps the administrator role');
    }
    if (input.roles) {
      const current = (await this.repo.rolesOf([id])).get(id) ?? [];
      const next = [...new Set(input.roles)];
      const changed = next.length !== current.length || next.some((r) => !current.includes(r));
      if (changed && actor.id === id) throw forbidden('You cannot change your own roles');
      if (changed) await this.assertMayGrant(actor, next);
    }
    if (
      input.quota !== undefined &&
      actor.id === id &&
      !actor.isAdmin &&
      input.quota !== row.quotaGb
    )
      throw forbidden('Only an administrator can change their own quota');
    const { roles, quota, ...profile } = input;
    const set = {
      ...profile,
      ...(quota === undefined ? {} : { quotaGb: quota }),
      updatedAt: Date.now(),
    };
    const refused = await this.repo.update(id, set, roles && [...new Set(roles)]);
    if (refused) throw badParameter('Some roles do not exist');
    return this.get(actor, id);
  }

  async remove(actor: Actor, ids: string[]): Promise<void> {
    requireAuthority(actor, 'sys:user:delete');
    const unique = [...new Set(ids)];
    const rows = await this.repo.findMany(unique);
    if (rows.length !== unique.length)
      throw new AppError(ErrorCode.USER_NOT_FOUND, 'User not found');
    if (rows.some((r) => r.isCreator === 1)) {
      throw new AppError(
        ErrorCode.PERMISSION_DENIED,
        'The creator of this drive cannot be deleted',
      );
    }
    if (unique.includes(actor.id)) throw badParameter('You cannot delete yourself');
    for (const row of rows) await this.assertMayManage(actor, row);
    await this.repo.removeMany(unique);
    for (const id of unique) this.usernames.delete(id);
    for (const row of rows) for (const hook of this.lifecycle) await hook.deleted?.(row);
  }

  /** An administrator sets a new password, or one is generated and shown once. */
  async resetPassword(actor: Actor, id: string, password?: string): Promise<string> {
    requireAuthority(actor, 'sys:user:update');
    const row = await this.mustFind(id);
    // one's own password changes with the current one (update-pass), never by a reset
    if (actor.id === id) throw forbidden('Change your own password with your current password');
    await this.assertMayManage(actor, row);
    const next = password ?? generatePassword();
    await this.setPassword(id, next);
    await this.endAccess(id);
    return next;
  }

  /**
   * A recovery step (a new password, an administrator's reset, two-factor sign-in turned on)
   * ends the account's sessions, but the one taking the step, and all its access tokens: a
   * thief holding any of them is out.
   */
  async endAccess(userId: string, keepSessionId?: string): Promise<void> {
    await this.sessions.revokeAllForUser(userId, keepSessionId || undefined);
    await this.accessTokens.removeAllOf(userId);
  }

  /** What a recovery step would end: one's own other sessions, or another user's (a reset). */
  async accessSummary(actor: Actor, id = actor.id): Promise<AccessSummary> {
    if (actor.id !== id) {
      requireAuthority(actor, 'sys:user:update');
      await this.assertMayManage(actor, await this.mustFind(id));
    }
    return {
      otherSessions: await this.sessions.countLive(id, actor.id === id ? actor.sessionId : ''),
      accessTokens: await this.accessTokens.countOf(id),
    };
  }

  /**
   * Whether this is one's own password (turning two-factor sign-in off), under the same guess
   * limit as the current password of a change.
   */
  async confirmOwnPassword(userId: string, password: string): Promise<boolean> {
    return this.guessCurrentPassword(await this.mustFind(userId), password);
  }

  /** Whether one's own current password is this one; five wrong guesses in a row pause it. */
  async checkOldPassword(actor: Actor, id: string, password: string): Promise<boolean> {
    if (actor.id !== id) throw forbidden('You can only check your own password');
    const row = await this.mustFind(id);
    const valid = await this.guessCurrentPassword(row, password);
    if (valid && actor.sessionId) {
      const now = Date.now();
      for (const [session, proof] of this.passwordProofs)
        if (proof.until <= now) this.passwordProofs.delete(session);
      this.passwordProofs.set(actor.sessionId, { userId: id, until: now + PROOF_MS });
    }
    return valid;
  }

  /**
   * Whether this session proved this user's current password within PROOF_MS: the proof is
   * used up by the asking, whatever the answer (taken before anything waits, so of two changes
   * at once only one has it).
   */
  private takePasswordProof(actor: Actor, id: string): boolean {
    if (!actor.sessionId) return false;
    const proof = this.passwordProofs.get(actor.sessionId);
    this.passwordProofs.delete(actor.sessionId);
    return proof !== undefined && proof.userId === id && proof.until > Date.now();
  }

  private guessCurrentPassword(row: UserRow, password: string): Promise<boolean> {
    return this.attempts.guard(
      [currentPasswordRule(row.id)],
      () => verifyPassword(password, row.passwordHash),
      (ms) => tooManyAttempts('wrong passwords', ms),
    );
  }

  /**
   * Refuse unless the actor may change this account. The creator's account only its owner
   * changes. Someone who is not an administrator changes neither administrators nor anyone
   * holding a permission (beyond an ordinary user's) that they do not hold themselves: taking
   * over such an account would give them more than they have.
   */
  private async assertMayManage(actor: Actor, target: UserRow): Promise<void> {
    if (actor.id === target.id) return;
    if (target.isCreator === 1)
      throw forbidden("Only the creator of this drive can change the creator's account");
    if (actor.isAdmin) return;
    const grants = await this.repo.grantsOf(target.id);
    if (grants.roleCodes.includes(ADMIN_ROLE.code))
      throw forbidden('Only an administrator can change an administrator');
    if (!mayGive(actor, grants.authorities))
      throw forbidden('This user holds permissions you do not have');
  }

  /**
   * Refuse roles the actor may not give: the administrator role (administrators only) and roles
   * granting a permission, beyond an ordinary user's, that the actor does not hold.
   */
  private async assertMayGrant(actor: Actor, roleIds: string[]): Promise<void> {
    if (actor.isAdmin) return;
    const unique = [...new Set(roleIds)];
    const grants = await this.repo.grantsOfRoles(unique);
    if (grants.found !== unique.length) throw badParameter('Some roles do not exist');
    if (grants.roleCodes.includes(ADMIN_ROLE.code))
      throw forbidden('Only an administrator can grant the administrator role');
    if (!mayGive(actor, grants.authorities))
      throw forbidden('You cannot grant permissions you do not hold');
  }

  /**
   * Change one's own password (the old one is required): every other session and every access
   * token ends.
   */
  async changePassword(
    actor: Actor,
    id: string,
    oldPassword: string | undefined,
    password: string,
  ): Promise<void> {
    if (actor.id !== id) {
      await this.resetPassword(actor, id, password);
      return;
    }
    // without the current password: a proof of it by this session just before (the original
    // client's flow), or nothing
    if (!oldPassword && !this.takePasswordProof(actor, id))
      throw badParameter(
        'oldPassword: required, the current password (or prove it with /valid-old-pass first)',
      );
    const row = await this.mustFind(id);
    if (oldPassword && !(await this.guessCurrentPassword(row, oldPassword))) {
      throw new AppError(ErrorCode.WARNING, 'The current password is wrong');
    }
    await this.setPassword(id, password);
    await this.endAccess(id, actor.sessionId);
  }

  /**
   * After a right password: a hash made with less work than the configured cost is replaced by
   * one at that cost (not a change of password: no session ends, the change date stays). A
   * password changed meanwhile is left alone. Answers the hash now stored.
   */
  async strengthenHash(user: UserRow, password: string): Promise<string> {
    if (!weakerThan(user.passwordHash, this.config.passwordCost)) return user.passwordHash;
    const stronger = await hashPassword(password, this.config.passwordCost);
    const replaced = await this.repo.replacePasswordHash(user.id, user.passwordHash, stronger);
    return replaced ? stronger : user.passwordHash;
  }

  private async setPassword(id: string, password: string): Promise<void> {
    // a proof of the password that was is no proof of the new one
    for (const [session, proof] of this.passwordProofs)
      if (proof.userId === id) this.passwordProofs.delete(session);
    const now = Date.now();
    await this.repo.setFields(id, {
      passwordHash: await hashPassword(password, this.config.passwordCost),
      passwordChangedAt: now,
      updatedAt: now,
    });
  }

  /** The file (an image of the person's own drive) their avatar is drawn from; null: none. */
  async setAvatar(userId: string, fileId: string | null): Promise<void> {
    await this.repo.setFields(userId, { avatar: fileId, updatedAt: Date.now() });
  }

  async setTheme(actor: Actor, theme: Theme): Promise<void> {
    await this.repo.setFields(actor.id, { theme, updatedAt: Date.now() });
  }

  async theme(actor: Actor): Promise<Theme> {
    const row = await this.mustFind(actor.id);
    return row.theme as Theme;
  }

  async info(actor: Actor): Promise<UserInfo> {
    const row = await this.mustFind(actor.id);
    const drive = await this.settings.drive();
    const { roleCodes } = await this.repo.grantsOf(actor.id);
    return {
      id: row.id,
      username: row.username,
      showName: row.showName,
      ...(row.avatar ? { avatar: row.avatar } : {}),
      slogan: row.slogan,
      introduction: row.introduction,
      roles: roleCodes,
      quota: row.quotaGb,
      takeUpSpace: row.usedBytes,
      creator: row.isCreator === 1,
      mfaEnabled: row.mfaEnabled === 1,
      personalization: { theme: row.theme as Theme },
      createTime: formatDateTime(row.createdAt),
      netdiskName: drive.netdiskName,
      ...(drive.netdiskLogo ? { netdiskLogo: drive.netdiskLogo } : {}),
      iframe: drive.iframe,
      exactSearch: drive.exactSearch,
      newVersion: this.updates.hasNewVersion(),
      authorities: actor.isAdmin ? ['*', ...actor.authorities] : [...actor.authorities],
    };
  }

  private async mustFind(id: string): Promise<UserRow> {
    const row = await this.repo.findById(id);
    if (!row) throw new AppError(ErrorCode.USER_NOT_FOUND, 'User not found');
    return row;
  }

  private async toListItems(rows: UserRow[]): Promise<UserListItem[]> {
    const roles = await this.repo.rolesOf(rows.map((r) => r.id));
    return rows.map((r) => ({
      id: r.id,
      username: r.username,
      showName: r.showName,
      ...(r.avatar ? { avatar: r.avatar } : {}),
      quota: r.quotaGb,
      takeUpSpace: r.usedBytes,
      creator: r.isCreator === 1,
      roles: roles.get(r.id) ?? [],
      createTime: formatDateTime(r.createdAt),
      mfaEnabled: r.mfaEnabled === 1,
    }));
  }
}
