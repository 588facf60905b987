import { z } from 'zod';
import {
  MENU_NAME_MAX_LENGTH,
  ROLE_CODE_PATTERN,
  ROLE_NAME_MAX_LENGTH,
  ROLE_REMARKS_MAX_LENGTH,
} from './constants.ts';
import { endpoint } from './endpoint.ts';
import { idsQuery, recordIdSchema } from './users.ts';
import { flag, queryNumber } from './validation.ts';

/** A menu (or a button's authority) of the menu tree. */
export interface MenuNode {
  id: string;
  parentId: string | null;
  name: string;
  authority: string | null;
  path: string | null;
  component: string | null;
  icon: string | null;
  sortNumber: number;
  menuType: number;
  hide: boolean;
  builtin: boolean;
  children?: MenuNode[];
}
export const menuNode: z.ZodType<MenuNode> = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  name: z.string(),
  authority: z.string().nullable(),
  path: z.string().nullable(),
  component: z.string().nullable(),
  icon: z.string().nullable(),
  sortNumber: z.number(),
  menuType: z.number(),
  hide: z.boolean(),
  builtin: z.boolean(),
  get children() {
    return z.array(menuNode).optional();
  },
});
export const menuList = z.array(menuNode);
export const menuInfoQuery = z.object({ menuId: recordIdSchema });
/** The authorities the caller holds. */
export const authorityList = z.array(z.string());

export const menuBody = z.object({
  parentId: z.string().max(64).nullish(),
  name: z.string().trim().min(1, 'enter a menu name').max(MENU_NAME_MAX_LENGTH),
  authority: z.string().trim().max(100).nullish(),
  path: z.string().trim().max(200).nullish(),
  component: z.string().trim().max(200).nullish(),
  icon: z.string().trim().max(200).nullish(),
  sortNumber: queryNumber(z.number().int().min(-1_000_000).max(1_000_000).default(0)),
  menuType: queryNumber(z.number().int().min(0).max(4)),
  // "false" is false: a coerced boolean would take any non-empty text as true
  hide: flag(),
});
export const menuUpdateBody = menuBody.partial().extend({ id: recordIdSchema });

export const role = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  remarks: z.string().nullable(),
  builtin: z.boolean(),
  menuIds: z.array(z.string()),
  createTime: z.string(),
});
export type Role = z.infer<typeof role>;
export const roleList = z.array(role);

export const roleBody = z.object({
  name: z.string().trim().min(1, 'enter a role name').max(ROLE_NAME_MAX_LENGTH),
  code: z.string().trim().regex(ROLE_CODE_PATTERN, 'role code: letters, digits, "_" or "-"'),
  remarks: z.string().max(ROLE_REMARKS_MAX_LENGTH).nullish(),
  // a role without menus would sign its users in to an empty drive
  menuIds: z
    .array(recordIdSchema, 'tick at least one menu')
    .min(1, 'tick at least one menu')
    .max(1000, 'at most 1000 menus'),
});
export const roleUpdateBody = roleBody.partial().extend({ id: recordIdSchema });

type IdsIn = z.input<typeof idsQuery>['ids'];

/** The ids to delete: `ids`, or the name the original client used (`menuIds`, `roleIds`). */
const idsOrAlias = <Alias extends string>(alias: Alias) =>
  z.preprocess(
    (q: { ids?: IdsIn } & { [K in Alias]?: IdsIn }) => ({
      ids: q?.ids ?? (q as Record<Alias, IdsIn> | undefined)?.[alias],
    }),
    idsQuery,
  );

/** The menu tree and the roles built from it (administrators). */
export const menusApi = {
  /** The menus the caller's roles grant, as a tree: its sidebars, top bar and avatar menu. */
  tree: endpoint({ method: 'GET', path: '/menu/tree', answer: menuList, access: 'user' }),
  /** Every menu. */
  list: endpoint({
    method: 'GET',
    path: '/menu/list',
    answer: menuList,
    access: 'user',
    authority: 'sys:menu:list',
  }),
  /** Every authority some menu names. */
  authorities: endpoint({
    method: 'GET',
    path: '/menu/authorities',
    answer: authorityList,
    access: 'user',
    authority: 'sys:menu:list',
  }),
  info: endpoint({
    method: 'GET',
    path: '/menu/info',
    query: menuInfoQuery,
    answer: menuNode,
    access: 'user',
    authority: 'sys:menu:list',
  }),
  add: endpoint({
    method: 'POST',
    path: '/menu/add',
    body: menuBody,
    answer: menuNode,
    access: 'user',
    authority: 'sys:menu:update',
  }),
  update: endpoint({
    method: 'PUT',
    path: '/menu/update',
    body: menuUpdateBody,
    answer: menuNode,
    access: 'user',
    authority: 'sys:menu:update',
  }),
  /** Deletes menus (the caller sends a menu's whole subtree). */
  remove: endpoint({
    method: 'DELETE',
    path: '/menu/delete',
    query: idsOrAlias('menuIds'),
    answer: null,
    access: 'user',
    authority: 'sys:menu:update',
  }),
  /** Puts the built-in menus and roles back as they came. */
  reset: endpoint({
    method: 'PUT',
    path: '/user/setting/resetMenuAndRole',
    answer: null,
    access: 'user',
    authority: 'sys:menu:update',
  }),
};

export const rolesApi = {
  list: endpoint({
    method: 'GET',
    path: '/role/list',
    answer: roleList,
    access: 'user',
    authority: 'sys:role:list',
  }),
  add: endpoint({
    method: 'POST',
    path: '/role/add',
    body: roleBody,
    answer: role,
    access: 'user',
    authority: 'sys:role:update',
  }),
  update: endpoint({
    method: 'PUT',
    path: '/role/update',
    body: roleUpdateBody,
    answer: role,
    access: 'user',
    authority: 'sys:role:update',
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/role/delete',
    query: idsOrAlias('roleIds'),
    answer: null,
    access: 'user',
    authority: 'sys:role:update',
  }),
};
