import * as Icons from '@ant-design/icons';
import { SEED_MENUS } from '@nimbus/contract';
import { describe, expect, it } from 'vitest';
import { iconOfMenu } from './MenuIcon';

// The built-in menus carry the original product's icon names (for its clients); this app draws
// them by their ids, and an icon an administrator picked from its own set still wins.
describe('menu icons', () => {
  it('draws every built-in page menu by its id, not by the name it carries', () => {
    expect(iconOfMenu({ id: 'home', icon: 'ziyuan' })).toBe(Icons.HomeOutlined);
    expect(iconOfMenu({ id: 'trash', icon: 'huishouzhan' })).toBe(Icons.DeleteOutlined);
    expect(iconOfMenu({ id: 'avatar-cloud', icon: 'yunshezhi' })).toBe(Icons.CloudOutlined);
    for (const menu of SEED_MENUS.filter((m) => m.menuType !== 1))
      expect(iconOfMenu(menu), menu.id).not.toBe(Icons.AppstoreOutlined);
  });

  it('keeps an icon an administrator chose, and names menus people added by their icon', () => {
    expect(iconOfMenu({ id: 'trash', icon: 'RestOutlined' })).toBe(Icons.RestOutlined);
    expect(iconOfMenu({ id: 'x1', icon: 'BookOutlined' })).toBe(Icons.BookOutlined);
    expect(iconOfMenu({ id: 'x2', icon: 'https://example.org/a.svg' })).toBe(Icons.ExportOutlined);
    expect(iconOfMenu({ id: 'x3', icon: null })).toBe(Icons.AppstoreOutlined);
  });
});
