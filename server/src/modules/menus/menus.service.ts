import type { MenuNode, Role } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import type { Actor } from '../../lib/access.ts';
import { mayGive, requireAuthority } from '../../lib/access.ts';
import { AppError, badParameter, exists, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time.ts';
import { ErrorCode } from '@nimbus/contract';
import { ADMIN_ROLE, SEED_MENUS, USER_ROLE, USER_ROLE_MENUS } from './menu-seed.ts';
import { MenusRepo, type MenuRow, type RoleRow } from './menus.repo.ts';

export interface MenuInput {
  parentId?: string | null;
  name?: string;
  authority?: string | null;
  path?: string | null;
  component?: string | null;
  icon?: string | null;
  sortNumber?: number;
  menuType?: number;
  hide?: boolean;
}

export interface RoleInput {
  name?: string;
  code?: string;
  remarks?: string | null;
  menuIds?: string[];
}

const toNode = (m: MenuRow): MenuNode => ({
  id: m.id,
  parentId: m.parentId,
  name: m.name,
  authority: m.authority,
  path: m.path,
  // a client of the original reads text in both (menus made without them included)
  component: m.component ?? '',
  icon: m.icon ?? '',
  sortNumber: m.sortNumber,
  menuType: m.menuType,
  hide: m.hide === 1,
  builtin: m.builtin === 1,
});

/** Nest flat menus by parentId; orphans (parent not visible) become roots. */
export function buildTree(menus: MenuNode[]): MenuNode[] {
  const byId = new Map(menus.map((m) => [m.id, { ...m }]));
  const roots: MenuNode[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  const sort = (list: MenuNode[]) => {
    list.sort((a, b) => a.menuType - b.menuType || a.sortNumber - b.sortNumber);
    for (const n of list) if (n.children) sort(n.children);
  };
  sort(roots);
  return roots;
}

export class MenusService {
  private readonly repo: MenusRepo;

  constructor(db: Db) {
    this.repo = new MenusRepo(db);
  }

  /** First boot: the default menus and roles. */
  async ensureSeeded(): Promise<void> {
    if (!(await this.repo.hasAnyRole())) await this.restoreDefaults();
  }

  /**
   * Restore the built-in menus and roles (spec §6): built-in rows get their default values
   * and links back; menus and roles people added stay as they are.
   */
  async restoreDefaults(): Promise<void> {
    const now = Date.now();
    const seedIds = SEED_MENUS.map((m) => m.id);
    await this.repo.inTransaction(async (repo) => {
      await repo.deleteBuiltinMenusExcept(seedIds);
      for (const m of SEED_MENUS)
        await repo.putMenu({ ...m, hide: m.hide ? 1 : 0, builtin: 1, createdAt: now });
      for (const role of [ADMIN_ROLE, USER_ROLE]) {
        await repo.putBuiltinRole({
          id: role.id,
          name: role.name,
          code: role.code,
          remarks: null,
          builtin: 1,
          createdAt: now,
        });
        await repo.setRoleMenus(role.id, role.id === ADMIN_ROLE.id ? seedIds : USER_ROLE_MENUS);
      }
    });
  }

  async resetMenuAndRole(actor: Actor): Promise<void> {
    requireAuthority(actor, 'sys:menu:update');
    await this.restoreDefaults();
  }

  /** The menus the actor may see, as a tree. */
  async treeFor(actor: Actor): Promise<MenuNode[]> {
    const all = await this.repo.allMenus();
    let visible = all;
    if (!actor.isAdmin) {
      const ids = new Set(await this.repo.menuIdsOfUser(actor.id));
      visible = all.filter((m) => ids.has(m.id));
    }
    return buildTree(visible.map(toNode));
  }

  async authorities(actor: Actor): Promise<string[]> {
    requireAuthority(actor, 'sys:menu:list');
    const all = await this.repo.allMenus();
    return [...new Set(all.map((m) => m.authority).filter((a): a is string => !!a))].sort();
  }

  async list(actor: Actor): Promise<MenuNode[]> {
    requireAuthority(actor, 'sys:menu:list');
    return (await this.repo.allMenus()).map(toNode);
  }

  async info(actor: Actor, id: string): Promise<MenuNode> {
    requireAuthority(actor, 'sys:menu:list');
    const menu = await this.repo.findMenu(id);
    if (!menu) throw notFound('Menu not found');
    return toNode(menu);
  }

  async add(
    actor: Actor,
    input: MenuInput & { name: string; menuType: number },
  ): Promise<MenuNode> {
    requireAuthority(actor, 'sys:menu:update');
    this.assertMayGive(actor, [input.authority ?? null]);
    if (input.parentId && !(await this.repo.findMenu(input.parentId)))
      throw badParameter('Parent menu not found');
    const id = newId();
    await this.repo.insertMenu({
      id,
      parentId: input.parentId ?? null,
      name: input.name,
      authority: input.authority ?? null,
      path: input.path ?? null,
      component: input.component ?? null,
      icon: input.icon ?? null,
      sortNumber: input.sortNumber ?? 0,
      menuType: input.menuType,
      hide: input.hide ? 1 : 0,
      builtin: 0,
      createdAt: Date.now(),
    });
    return this.info(actor, id);
  }

  async update(actor: Actor, id: string, input: MenuInput): Promise<MenuNode> {
    requireAuthority(actor, 'sys:menu:update');
    const menu = await this.repo.findMenu(id);
    if (!menu) throw notFound('Menu not found');
    this.assertMayGive(actor, [menu.authority, input.authority ?? null]);
    if (input.parentId) {
      if (input.parentId === id) throw badParameter('A menu cannot be its own parent');
      const all = await this.repo.allMenus();
      const parentOf = new Map(all.map((m) => [m.id, m.parentId]));
      for (let p: string | null | undefined = input.parentId; p; p = parentOf.get(p)) {
        if (p === id) throw badParameter('A menu cannot move under its own child');
      }
      if (!parentOf.has(input.parentId)) throw badParameter('Parent menu not found');
    }
    const { hide, ...rest } = input;
    await this.repo.updateMenu(id, {
      ...rest,
      ...(hide === undefined ? {} : { hide: hide ? 1 : 0 }),
    });
    return this.info(actor, id);
  }

  async remove(actor: Actor, ids: string[]): Promise<void> {
    requireAuthority(actor, 'sys:menu:update');
    const all = await this.repo.allMenus();
    const doomed = new Set(ids);
    // children go with their parent
    let grew = true;
    while (grew) {
      grew = false;
      for (const m of all) {
        if (m.parentId && doomed.has(m.parentId) && !doomed.has(m.id)) {
          doomed.add(m.id);
          grew = true;
        }
      }
    }
    this.assertMayGive(
      actor,
      all.filter((m) => doomed.has(m.id)).map((m) => m.authority),
    );
    await this.repo.deleteMenus([...doomed]);
  }

  async roles(actor: Actor): Promise<Role[]> {
    requireAuthority(actor, 'sys:role:list');
    const [roles, links] = await Promise.all([this.repo.allRoles(), this.repo.menuIdsByRole()]);
    return roles.map((r) => this.toRole(r, links.get(r.id) ?? []));
  }

  private toRole(r: RoleRow, menuIds: string[]): Role {
    return {
      id: r.id,
      name: r.name,
      code: r.code,
      remarks: r.remarks,
      builtin: r.builtin === 1,
      menuIds,
      createTime: formatDateTime(r.createdAt),
    };
  }

  async addRole(
    actor: Actor,
    input: Required<Pick<RoleInput, 'name' | 'code'>> & RoleInput,
  ): Promise<Role> {
    requireAuthority(actor, 'sys:role:update');
    this.assertMayGive(actor, await this.authoritiesOf(input.menuIds ?? []));
    if (await this.repo.findRoleByCode(input.code))
      throw exists('A role with this code already exists');
    const id = newId();
    await this.repo.inTransaction(async (repo) => {
      await repo.insertRole({
        id,
        name: input.name,
        code: input.code,
        remarks: input.remarks ?? null,
        builtin: 0,
        createdAt: Date.now(),
      });
      await this.linkMenus(repo, id, input.menuIds ?? []);
    });
    return (await this.roles(actor)).find((r) => r.id === id)!;
  }

  async updateRole(actor: Actor, id: string, input: RoleInput): Promise<Role> {
    requireAuthority(actor, 'sys:role:update');
    const role = await this.repo.findRole(id);
    if (!role) throw notFound('Role not found');
    await this.assertMayChangeRoles(actor, [role]);
    if (input.menuIds) this.assertMayGive(actor, await this.authoritiesOf(input.menuIds));
    if (role.builtin === 1 && input.code && input.code !== role.code) {
      throw badParameter('The code of a built-in role cannot change');
    }
    if (input.code && input.code !== role.code && (await this.repo.findRoleByCode(input.code))) {
      throw exists('A role with this code already exists');
    }
    await this.repo.inTransaction(async (repo) => {
      const { menuIds, ...fields } = input;
      if (Object.keys(fields).length > 0) await repo.updateRole(id, fields);
      if (menuIds) await this.linkMenus(repo, id, menuIds);
    });
    return (await this.roles(actor)).find((r) => r.id === id)!;
  }

  async removeRoles(actor: Actor, ids: string[]): Promise<void> {
    requireAuthority(actor, 'sys:role:update');
    if (ids.includes(ADMIN_ROLE.id)) {
      throw new AppError(ErrorCode.PERMISSION_DENIED, 'The administrator role cannot be deleted');
    }
    const roles = (await this.repo.allRoles()).filter((r) => ids.includes(r.id));
    await this.assertMayChangeRoles(actor, roles);
    await this.repo.deleteRoles(ids);
  }

  /**
   * Someone who is not an administrator gives no role or menu a permission (beyond an ordinary
   * user's) that they do not hold, and changes no menu or role that grants one: with role or
   * menu editing delegated, nobody can raise themselves or anyone else.
   */
  private assertMayGive(actor: Actor, authorities: Array<string | null>): void {
    if (!mayGive(actor, authorities))
      throw new AppError(
        ErrorCode.PERMISSION_DENIED,
        'You cannot grant permissions you do not hold',
      );
  }

  private async assertMayChangeRoles(actor: Actor, roles: RoleRow[]): Promise<void> {
    if (actor.isAdmin) return;
    if (roles.some((r) => r.id === ADMIN_ROLE.id || r.code === ADMIN_ROLE.code))
      throw new AppError(
        ErrorCode.PERMISSION_DENIED,
        'Only an administrator can change the administrator role',
      );
    const links = await this.repo.menuIdsByRole();
    for (const role of roles)
      this.assertMayGive(actor, await this.authoritiesOf(links.get(role.id) ?? []));
  }

  /** The authorities the given menus grant. */
  private async authoritiesOf(menuIds: string[]): Promise<Array<string | null>> {
    if (menuIds.length === 0) return [];
    const wanted = new Set(menuIds);
    return (await this.repo.allMenus()).filter((m) => wanted.has(m.id)).map((m) => m.authority);
  }

  /** The role's menus become exactly these, every one of which must exist. */
  private async linkMenus(repo: MenusRepo, roleId: string, menuIds: string[]): Promise<void> {
    const unique = [...new Set(menuIds)];
    if ((await repo.countMenus(unique)) !== unique.length)
      throw badParameter('Some menus do not exist');
    await repo.setRoleMenus(roleId, unique);
  }
}
