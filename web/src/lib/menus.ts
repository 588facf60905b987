import { MenuType, type MenuNode } from '@nimbus/contract';
import i18n, { translateKey } from '../i18n/index';

const EXTERNAL = /^(https?:|mailto:|tel:)/i;

/** spec §2: paths starting with http, https, mailto or tel are external links. */
export function isExternal(value: string | null | undefined): boolean {
  return typeof value === 'string' && EXTERNAL.test(value);
}

/** Where a menu item leads outside the app, if it does (by its path, or a URL in its icon). */
export function externalTarget(node: Pick<MenuNode, 'path' | 'icon'>): string | null {
  if (node.path && isExternal(node.path)) return node.path;
  if (node.icon && isExternal(node.icon)) return node.icon;
  return null;
}

/** Menus of one type together, then by their sort number. */
function bySortNumber(a: MenuNode, b: MenuNode): number {
  return a.menuType - b.menuType || (a.sortNumber ?? 0) - (b.sortNumber ?? 0);
}

/** The visible items of one menu type, as a tree (menuType 1 is never shown, spec §2). */
export function menusOfType(tree: readonly MenuNode[], menuType: number): MenuNode[] {
  const result: MenuNode[] = [];
  for (const node of [...tree].sort(bySortNumber)) {
    if (node.hide || node.menuType === MenuType.SKIPPED) continue;
    const children = node.children?.length ? menusOfType(node.children, menuType) : [];
    if (node.menuType === menuType) result.push({ ...node, children });
    else result.push(...children); // a parent of another type still lends its matching children
  }
  return result;
}

export function flattenMenus(tree: readonly MenuNode[]): MenuNode[] {
  const out: MenuNode[] = [];
  const walk = (nodes: readonly MenuNode[]) => {
    for (const node of nodes) {
      out.push(node);
      if (node.children?.length) walk(node.children);
    }
  };
  walk(tree);
  return out;
}

/** Nests a flat menu list by parentId (admin list → tree), ordered by sortNumber. */
export function buildMenuTree(list: readonly MenuNode[]): MenuNode[] {
  const byId = new Map<string, MenuNode>();
  for (const node of list) byId.set(node.id, { ...node, children: [] });
  const roots: MenuNode[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    if (parent && parent !== node) parent.children!.push(node);
    else roots.push(node);
  }
  const sort = (nodes: MenuNode[]) => {
    nodes.sort(bySortNumber);
    for (const node of nodes) {
      if (node.children?.length) sort(node.children);
      else delete node.children;
    }
  };
  sort(roots);
  return roots;
}

/** Whether the user's menu tree grants a route path (types 1 included: they carry authority). */
export function hasMenuPath(tree: readonly MenuNode[], path: string): boolean {
  return flattenMenus(tree).some((node) => node.path === path);
}

/** The sidebar shows the settings section (type 2) on /setting paths, the main menu (type 0) elsewhere. */
export function sidebarMenuType(pathname: string): number {
  return pathname.startsWith('/setting') ? MenuType.SECTION : MenuType.MAIN;
}

/**
 * A seeded menu id has a translation (`menu:<id>`); other menus show their own name.
 * Callers re-render on a language change through their own useTranslation().
 */
export function menuLabel(node: Pick<MenuNode, 'id' | 'name'>): string {
  const key = `menu:${node.id}`;
  return i18n.exists(key) ? translateKey(key) : node.name;
}
