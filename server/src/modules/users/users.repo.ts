import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { UserTable } from '../../db/schema.ts';

/** Why a write was not made: the drive already had a user, or a role does not exist. */
export type UserWriteRefusal = 'initialized' | 'missingRoles';

export type UserRow = Selectable<UserTable>;

export interface UserFilter {
  username?: string;
  showName?: string;
  sortProp?: 'username' | 'showName' | 'createTime' | 'quota';
  sortOrder?: 'ascending' | 'descending';
  offset: number;
  limit: number;
}

const sortColumn = {
  username: 'username',
  showName: 'showName',
  createTime: 'createdAt',
  quota: 'quotaGb',
} as const;

/** Escape LIKE wildcards so a filter matches literally. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class UsersRepo {
  constructor(private readonly db: Db) {}

  /**
   * Inserts a user with their roles in one transaction; the creator only while there is no
   * user yet. Answers why nothing was written, if so.
   */
  async create(
    row: UserRow,
    roleIds: string[],
    isCreator: boolean,
  ): Promise<UserWriteRefusal | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (isCreator && (await trx.selectFrom('user').select('id').limit(1).execute()).length > 0)
        return 'initialized';
      const found = roleIds.length
        ? await trx.selectFrom('role').select('id').where('id', 'in', roleIds).execute()
        : [];
      if (found.length !== roleIds.length) return 'missingRoles';
      await trx.insertInto('user').values(row).execute();
      if (roleIds.length)
        await trx
          .insertInto('userRole')
          .values(roleIds.map((roleId) => ({ userId: row.id, roleId })))
          .execute();
      return undefined;
    });
  }

  /** Changes a user's fields and, when given, replaces their roles, in one transaction. */
  async update(
    id: string,
    set: Partial<Omit<UserRow, 'id'>>,
    roleIds: string[] | undefined,
  ): Promise<UserWriteRefusal | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (roleIds) {
        const found = roleIds.length
          ? await trx.selectFrom('role').select('id').where('id', 'in', roleIds).execute()
          : [];
        if (found.length !== roleIds.length) return 'missingRoles';
      }
      await trx.updateTable('user').set(set).where('id', '=', id).execute();
      if (roleIds) {
        await trx.deleteFrom('userRole').where('userId', '=', id).execute();
        if (roleIds.length)
          await trx
            .insertInto('userRole')
            .values(roleIds.map((roleId) => ({ userId: id, roleId })))
            .execute();
      }
      return undefined;
    });
  }

  findMany(ids: string[]): Promise<UserRow[]> {
    return this.db.selectFrom('user').selectAll().where('id', 'in', ids).execute();
  }

  async removeMany(ids: string[]): Promise<void> {
    await this.db.deleteFrom('user').where('id', 'in', ids).execute();
  }

  async setFields(id: string, set: Partial<Omit<UserRow, 'id'>>): Promise<void> {
    await this.db.updateTable('user').set(set).where('id', '=', id).execute();
  }

  /** The `limit` users storing the most bytes, the most first. */
  async mostUsed(limit: number): Promise<Array<{ id: string; usedBytes: number }>> {
    const rows = await this.db
      .selectFrom('user')
      .select(['id', 'usedBytes'])
      .orderBy('usedBytes', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, usedBytes: Number(r.usedBytes) }));
  }

  owners(): Promise<Array<{ id: string; username: string }>> {
    return this.db.selectFrom('user').select(['id', 'username']).execute();
  }

  /** Two-factor fields of a user (mfa.service.ts keeps the secret sealed). */
  async setMfa(
    id: string,
    fields: Pick<UserRow, 'mfaSecret' | 'mfaEnabled' | 'mfaRecovery' | 'mfaLastStep'>,
  ): Promise<void> {
    await this.db.updateTable('user').set(fields).where('id', '=', id).execute();
  }

  async clearAllMfa(): Promise<void> {
    await this.db
      .updateTable('user')
      .set({ mfaSecret: null, mfaEnabled: 0, mfaRecovery: null, mfaLastStep: null })
      .execute();
  }

  /**
   * Take a time step for a user: true only for a step later than the last one taken, in one
   * conditional statement, so a code works once even when sent twice at the same moment.
   */
  async claimMfaStep(id: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('user')
      .set({ mfaLastStep: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('mfaLastStep', 'is', null), eb('mfaLastStep', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Use a recovery code: true when the list was still the one read (no double use). */
  async replaceRecovery(id: string, before: string, after: string): Promise<boolean> {
    const result = await this.db
      .updateTable('user')
      .set({ mfaRecovery: after })
      .where('id', '=', id)
      .where('mfaRecovery', '=', before)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A stronger hash of the same password: true when the hash was still the one read. */
  async replacePasswordHash(id: string, before: string, after: string): Promise<boolean> {
    const result = await this.db
      .updateTable('user')
      .set({ passwordHash: after })
      .where('id', '=', id)
      .where('passwordHash', '=', before)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  count(): Promise<number> {
    return this.db
      .selectFrom('user')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The account of a username, matched regardless of case (usernames are unique regardless of
   * case). Of accounts created before that rule whose names differ only in case, the one spelt
   * exactly so; none when the spelling matches neither.
   */
  async findByUsername(username: string): Promise<UserRow | undefined> {
    const rows = await this.db
      .selectFrom('user')
      .selectAll()
      .where(sql<string>`lower(username)`, '=', username.toLowerCase())
      .execute();
    return rows.length === 1 ? rows[0] : rows.find((r) => r.username === username);
  }

  async list(filter: UserFilter): Promise<{ rows: UserRow[]; total: number }> {
    let q = this.db.selectFrom('user');
    if (filter.username)
      q = q.where(
        sql<boolean>`lower(username) like lower(${likeText(filter.username)}) escape '\\'`,
      );
    if (filter.showName)
      q = q.where(
        sql<boolean>`lower(show_name) like lower(${likeText(filter.showName)}) escape '\\'`,
      );
    const total = await q
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
    const column = sortColumn[filter.sortProp ?? 'createTime'];
    const rows = await q
      .selectAll()
      .orderBy(column, filter.sortOrder === 'descending' ? 'desc' : 'asc')
      .orderBy('id')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute();
    return { rows, total };
  }

  async rolesOf(userIds: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>();
    if (userIds.length === 0) return map;
    const rows = await this.db
      .selectFrom('userRole')
      .select(['userId', 'roleId'])
      .where('userId', 'in', userIds)
      .execute();
    for (const r of rows) map.set(r.userId, [...(map.get(r.userId) ?? []), r.roleId]);
    return map;
  }

  /** The codes of these roles and the authority strings they grant, for the roles that exist. */
  async grantsOfRoles(
    roleIds: string[],
  ): Promise<{ found: number; roleCodes: string[]; authorities: string[] }> {
    if (roleIds.length === 0) return { found: 0, roleCodes: [], authorities: [] };
    const roles = await this.db
      .selectFrom('role')
      .select('code')
      .where('id', 'in', roleIds)
      .execute();
    const authorities = await this.db
      .selectFrom('roleMenu')
      .innerJoin('menu', 'menu.id', 'roleMenu.menuId')
      .select('menu.authority')
      .distinct()
      .where('roleMenu.roleId', 'in', roleIds)
      .where('menu.authority', 'is not', null)
      .execute();
    return {
      found: roles.length,
      roleCodes: roles.map((r) => r.code),
      authorities: authorities.map((a) => a.authority).filter((a): a is string => !!a),
    };
  }

  /** Role codes and the authority strings the user's roles grant. */
  async grantsOf(userId: string): Promise<{ roleCodes: string[]; authorities: string[] }> {
    const roles = await this.db
      .selectFrom('userRole')
      .innerJoin('role', 'role.id', 'userRole.roleId')
      .select('role.code')
      .where('userRole.userId', '=', userId)
      .execute();
    const authorities = await this.db
      .selectFrom('userRole')
      .innerJoin('roleMenu', 'roleMenu.roleId', 'userRole.roleId')
      .innerJoin('menu', 'menu.id', 'roleMenu.menuId')
      .select('menu.authority')
      .distinct()
      .where('userRole.userId', '=', userId)
      .where('menu.authority', 'is not', null)
      .execute();
    return {
      roleCodes: roles.map((r) => r.code),
      authorities: authorities.map((a) => a.authority).filter((a): a is string => !!a),
    };
  }
}

/** True when a statement failed on a unique index or primary key (both dialects). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
