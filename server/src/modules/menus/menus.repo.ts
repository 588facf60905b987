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
}
