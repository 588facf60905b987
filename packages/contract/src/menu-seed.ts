import { MenuType } from './constants.ts';

export interface SeedMenu {
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
}

const menu = (
  id: string,
  name: string,
  menuType: number,
  sortNumber: number,
  fields: Partial<Omit<SeedMenu, 'id' | 'name' | 'menuType' | 'sortNumber'>> = {},
): SeedMenu => ({
  id,
  name,
  menuType,
  sortNumber,
  parentId: fields.parentId ?? null,
  authority: fields.authority ?? null,
  path: fields.path ?? null,
  // the original client loads `component` as a view and draws `icon` from its own icon set;
  // authorities (menuType 1) have neither, as empty text
  component: fields.component ?? '',
  icon: fields.icon ?? '',
  hide: fields.hide ?? false,
});

/** Authorities (menuType 1) that gate actions rather than pages. */
const fileAuthorities: Array<[string, string, string]> = [
  ['auth-file-upload', 'Upload', 'cloud:file:upload'],
  ['auth-file-update', 'Edit', 'cloud:file:update'],
  ['auth-file-delete', 'Delete', 'cloud:file:delete'],
  ['auth-file-download', 'Download', 'cloud:file:download'],
  ['auth-file-share', 'Share', 'cloud:file:share'],
];

const adminAuthorities: Array<[string, string, string]> = [
  ['auth-user-add', 'Add user', 'sys:user:add'],
  ['auth-user-update', 'Edit user', 'sys:user:update'],
  ['auth-user-delete', 'Delete user', 'sys:user:delete'],
  ['auth-role-edit', 'Edit roles', 'sys:role:update'],
  ['auth-menu-edit', 'Edit menus', 'sys:menu:update'],
  ['auth-cloud-set', 'Drive settings', 'cloud:set:update'],
];

/**
 * The default menu tree (spec §2 Navigation rules). Ids are stable: the web translates them
 * (`menu.<id>`) and draws their icons by id, and "reset menus and roles" restores exactly these
 * rows. `component` and `icon` are the view paths and icon names of the original menu seed
 * (API-NOTES appendix), which a client written for the original loads; the avatar menu's
 * "Settings" opens the profile view, the one its path leads to.
 */
export const SEED_MENUS: SeedMenu[] = [
  // Main sidebar (menuType 0)
  menu('home', 'Home', MenuType.MAIN, 1, {
    path: '/',
    component: '/home/index',
    icon: 'ziyuan',
    authority: 'cloud:file:list',
  }),
  menu('recently', 'Recently', MenuType.MAIN, 2, {
    path: '/recently',
    component: '/recently/index',
    icon: 'zuijinyuedu',
    authority: 'cloud:file:list',
  }),
  menu('favorite', 'Favorite', MenuType.MAIN, 3, {
    path: '/favorite',
    component: '/favorite/index',
    icon: 'Favoritestarrate',
    authority: 'cloud:file:list',
  }),
  menu('document', 'Document', MenuType.MAIN, 4, {
    path: '/document',
    component: '/fileType/document',
    icon: 'document',
    authority: 'cloud:file:list',
  }),
  menu('image', 'Image', MenuType.MAIN, 5, {
    path: '/image',
    component: '/fileType/image',
    icon: 'image',
    authority: 'cloud:file:list',
  }),
  menu('audio', 'Audio', MenuType.MAIN, 6, {
    path: '/audio',
    component: '/fileType/audio',
    icon: 'file_music',
    authority: 'cloud:file:list',
  }),
  menu('video', 'Video', MenuType.MAIN, 7, {
    path: '/video',
    component: '/fileType/video',
    icon: 'video',
    authority: 'cloud:file:list',
  }),
  menu('mount', 'Mount', MenuType.MAIN, 8, {
    path: '/mount',
    component: '/mount/index',
    icon: 'guazai',
    authority: 'cloud:file:list',
  }),
  menu('trash', 'Trash', MenuType.MAIN, 9, {
    path: '/trash',
    component: '/trash/index',
    icon: 'huishouzhan',
    authority: 'cloud:file:delete',
  }),
  menu('tag', 'Tags', MenuType.MAIN, 10, {
    path: '/tag',
    component: '/tag/index',
    icon: 'biaoqian',
    authority: 'cloud:file:list',
    hide: true,
  }),
  menu('share', 'Shares', MenuType.MAIN, 11, {
    path: '/share',
    component: '/share/index',
    icon: 'gongxiangzhongxin',
    authority: 'cloud:file:share',
  }),
  ...fileAuthorities.map(([id, name, authority], i) =>
    menu(id, name, MenuType.SKIPPED, 20 + i, { authority, parentId: 'home' }),
  ),

  // Settings section (menuType 2)
  menu('setting-user', 'User settings', MenuType.SECTION, 1, {
    path: '/setting/user',
    component: '/setting/sys/cusomerInfo',
    icon: 'UserSettings',
  }),
  menu('setting-cloud', 'Cloud management', MenuType.SECTION, 2, {
    path: '/setting/cloudManager',
    component: '/setting/cloudManager',
    icon: 'yunshezhi',
    authority: 'cloud:set:sync',
  }),
  menu('setting-task', 'Task progress', MenuType.SECTION, 3, {
    path: '/setting/taskProgress',
    component: '/setting/taskProgress',
    icon: 'gengxinjindu',
  }),
  menu('sys-user', 'Users', MenuType.SECTION, 4, {
    path: '/setting/sys/user',
    component: '/setting/sys/cusomerManager',
    icon: 'huaban',
    authority: 'sys:user:list',
  }),
  menu('sys-role', 'Roles', MenuType.SECTION, 5, {
    path: '/setting/sys/role',
    component: '/setting/sys/roleManager',
    icon: 'role',
    authority: 'sys:role:list',
  }),
  menu('sys-menu', 'Menus', MenuType.SECTION, 6, {
    path: '/setting/sys/menu',
    component: '/setting/sys/menuManager',
    icon: 'menu',
    authority: 'sys:menu:list',
  }),
  ...adminAuthorities.map(([id, name, authority], i) =>
    menu(id, name, MenuType.SKIPPED, 20 + i, { authority, parentId: 'sys-user' }),
  ),

  // Avatar dropdown (menuType 4)
  menu('avatar-setting', 'Settings', MenuType.AVATAR, 1, {
    path: '/setting/user',
    component: '/setting/sys/cusomerInfo',
    icon: 'shezhi',
  }),
  menu('avatar-cloud', 'Cloud management', MenuType.AVATAR, 2, {
    path: '/setting/cloudManager',
    component: '/setting/cloudManager',
    icon: 'yunshezhi',
    authority: 'cloud:set:sync',
  }),
  menu('avatar-task', 'Task progress', MenuType.AVATAR, 3, {
    path: '/setting/taskProgress',
    component: '/setting/taskProgress',
    icon: 'gengxinjindu',
  }),
];

export const ADMIN_ROLE = { id: 'role-admin', code: 'admin', name: 'Administrator' } as const;
export const USER_ROLE = { id: 'role-user', code: 'user', name: 'User' } as const;

/** Menus of the ordinary user: the file features, their own settings and task progress. */
export const USER_ROLE_MENUS = SEED_MENUS.filter(
  (m) => !m.authority || m.authority.startsWith('cloud:file:'),
).map((m) => m.id);
