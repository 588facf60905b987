import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { MenuTable, RoleTable } from '../../db/schema.ts';

export type MenuRow = Selectable<MenuTable>;
export type RoleRow = Selectable<RoleTable>;

export class MenusRepo {
  constructor(private readonly db: Db) {}

  allMenus(): Promise<MenuRow[]> {
    return this.db
      .selectFrom('menu')
      .selectAll()
      .orderBy('menuType')
      .orderBy('sortNumber')
      .orderBy('id')
      .execute();
  }

  menuIdsOfUser(userId: string): Promise<string[]> {
    return this.db
      .selectFrom('userRole')
      .innerJoin('roleMenu', 'roleMenu.roleId', 'userRole.roleId')
      .select('roleMenu.menuId')
      .distinct()
      .where('userRole.userId', '=', userId)
      .execute()
      .then((rows) => rows.map((r) => r.menuId));
  }

  findMenu(id: string): Promise<MenuRow | undefined> {
    return this.db.selectFrom('menu').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertMenu(row: Insertable<MenuTable>): Promise<void> {
    await this.db.insertInto('menu').values(row).execute();
  }

  async updateMenu(id: string, values: Updateable<MenuTable>): Promise<void> {
    await this.db.updateTable('menu').set(values).where('id', '=', id).execute();
  }

  async deleteMenus(ids: string[]): Promise<void> {
    await this.db.deleteFrom('menu').where('id', 'in', ids).execute();
  }

  allRoles(): Promise<RoleRow[]> {
    return this.db.selectFrom('role').selectAll().orderBy('createdAt').orderBy('id').execute();
  }

  findRole(id: string): Promise<RoleRow | undefined> {
    return this.db.selectFrom('role').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findRoleByCode(code: string): Promise<RoleRow | undefined> {
    return this.db.selectFrom('role').selectAll().where('code', '=', code).executeTakeFirst();
  }

  async menuIdsByRole(): Promise<Map<string, string[]>> {
    const rows = await this.db.selectFrom('roleMenu').selectAll().execute();
    const map = new Map<string, string[]>();
    for (const r of rows) map.set(r.roleId, [...(map.get(r.roleId) ?? []), r.menuId]);
    return map;
  }

  /** Runs `work` in one transaction, with a repo bound to it. */
  inTransaction<T>(work: (repo: MenusRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new MenusRepo(trx)));
  }

  async hasAnyRole(): Promise<boolean> {
    return (await this.db.selectFrom('role').select('id').limit(1).execute()).length > 0;
  }

  /** Built-in menus that are no longer part of the seed go. */
  async deleteBuiltinMenusExcept(keep: string[]): Promise<void> {
    await this.db.deleteFrom('menu').where('builtin', '=', 1).where('id', 'not in', keep).execute();
  }

  /** Insert or update a built-in menu to the given values. */
  async putMenu(values: Insertable<MenuTable>): Promise<void> {
    const found = await this.db
      .selectFrom('menu')
      .select('id')
      .where('id', '=', values.id)
      .executeTakeFirst();
    const { createdAt: _createdAt, ...changes } = values;
    if (found) await this.db.updateTable('menu').set(changes).where('id', '=', values.id).execute();
    else await this.db.insertInto('menu').values(values).execute();
  }

  /**
   * Insert or update a built-in role; a role of someone's own that took its code gives the code
   * back first.
   */
  async putBuiltinRole(values: Insertable<RoleTable>): Promise<void> {
    const found = await this.db
      .selectFrom('role')
      .select('id')
      .where('id', '=', values.id)
      .executeTakeFirst();
    const { createdAt: _createdAt, id, ...changes } = values;
    if (found) {
      await this.db.updateTable('role').set(changes).where('id', '=', id).execute();
      return;
    }
    await this.db
      .deleteFrom('role')
      .where('code', '=', values.code)
      .where('builtin', '=', 0)
      .execute();
    await this.db.insertInto('role').values(values).execute();
  }

  async insertRole(row: Insertable<RoleTable>): Promise<void> {
    await this.db.insertInto('role').values(row).execute();
  }

  async updateRole(id: string, values: Updateable<RoleTable>): Promise<void> {
    await this.db.updateTable('role').set(values).where('id', '=', id).execute();
  }

  async deleteRoles(ids: string[]): Promise<void> {
    await this.db.deleteFrom('role').where('id', 'in', ids).execute();
  }

  /** How many of these menus exist. */
  async countMenus(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return (await this.db.selectFrom('menu').select('id').where('id', 'in', ids).execute()).length;
  }

  /** The role's menus become exactly these. */
  async setRoleMenus(roleId: string, menuIds: string[]): Promise<void> {
    await this.db.deleteFrom('roleMenu').where('roleId', '=', roleId).execute();
    if (menuIds.length > 0)
      await this.db
        .insertInto('roleMenu')
        .values(menuIds.map((menuId) => ({ roleId, menuId })))
        .execute();
  }
}
