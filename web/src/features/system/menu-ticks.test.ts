import type { MenuNode } from '@nimbus/contract';
import { describe, expect, it } from 'vitest';
import { toggleMenu } from './menu-ticks';

const node = (id: string, children: MenuNode[] = []): MenuNode =>
  ({ id, parentId: null, name: id, menuType: 0, sortNumber: 0, children }) as unknown as MenuNode;

const tree = [
  node('home', [node('upload'), node('share')]),
  node('settings', [node('users', [node('add-user')])]),
];

describe('toggleMenu', () => {
  it('ticks a menu alone, never the permissions under it', () => {
    expect(toggleMenu(tree, [], 'home', true)).toEqual(['home']);
  });

  it('ticks the menus above a ticked permission', () => {
    expect(toggleMenu(tree, [], 'add-user', true).sort()).toEqual(
      ['add-user', 'settings', 'users'].sort(),
    );
  });

  it('unticks what lies under an unticked menu, and nothing beside it', () => {
    const ticked = ['home', 'upload', 'share', 'settings', 'users'];
    expect(toggleMenu(tree, ticked, 'home', false).sort()).toEqual(['settings', 'users']);
    expect(toggleMenu(tree, ticked, 'upload', false).sort()).toEqual(
      ['home', 'settings', 'share', 'users'].sort(),
    );
  });
});
