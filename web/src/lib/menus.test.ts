import { MenuType, type MenuNode } from '@nimbus/contract';
import { describe, expect, it } from 'vitest';
import { buildMenuTree, externalTarget, hasMenuPath, menusOfType, sidebarMenuType } from './menus';

const node = (id: string, menuType: number, fields: Partial<MenuNode> = {}): MenuNode => ({
  id,
  parentId: null,
  name: id,
  authority: null,
  path: `/${id}`,
  component: null,
  icon: null,
  sortNumber: 0,
  menuType,
  hide: false,
  builtin: true,
  ...fields,
});

describe('menus', () => {
  const list = [
    node('trash', MenuType.MAIN, { sortNumber: 9 }),
    node('home', MenuType.MAIN, { sortNumber: 1, path: '/' }),
    node('upload', MenuType.SKIPPED, { parentId: 'home', path: null }),
    node('tag', MenuType.MAIN, { sortNumber: 10, hide: true }),
    node('setting-user', MenuType.SECTION, { path: '/setting/user' }),
    node('avatar-setting', MenuType.AVATAR, { path: '/setting/user' }),
    node('blog', MenuType.TOP_BAR, { path: null, icon: 'https://blog.example' }),
  ];
  const tree = buildMenuTree(list);

  it('nests by parent and orders by type then sort number', () => {
    expect(tree.map((n) => n.id)).toEqual([
      'home',
      'trash',
      'tag',
      'setting-user',
      'blog',
      'avatar-setting',
    ]);
    expect(tree[0]?.children?.map((n) => n.id)).toEqual(['upload']);
  });

  it('keeps one visible menu type and never shows permission entries', () => {
    const main = menusOfType(tree, MenuType.MAIN);
    expect(main.map((n) => n.id)).toEqual(['home', 'trash']);
    expect(main[0]?.children).toEqual([]);
    expect(menusOfType(tree, MenuType.SECTION).map((n) => n.id)).toEqual(['setting-user']);
  });

  it('treats http, https, mailto and tel links as external', () => {
    expect(externalTarget({ path: null, icon: 'https://blog.example' })).toBe(
      'https://blog.example',
    );
    expect(externalTarget({ path: 'mailto:a@b.c', icon: 'MailOutlined' })).toBe('mailto:a@b.c');
    expect(externalTarget({ path: '/trash', icon: 'DeleteOutlined' })).toBeNull();
  });

  it('grants routes by path and picks the sidebar section', () => {
    expect(hasMenuPath(tree, '/setting/user')).toBe(true);
    expect(hasMenuPath(tree, '/setting/sys/user')).toBe(false);
    expect(sidebarMenuType('/setting/sys/role')).toBe(MenuType.SECTION);
    expect(sidebarMenuType('/trash')).toBe(MenuType.MAIN);
  });
});
