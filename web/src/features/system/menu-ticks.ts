import type { MenuNode } from '@nimbus/contract';

/** Each menu's parent, as the tree nests them. */
export function parentsOf(tree: readonly MenuNode[]): Map<string, string> {
  const parents = new Map<string, string>();
  const walk = (nodes: readonly MenuNode[]) => {
    for (const node of nodes) {
      for (const child of node.children ?? []) parents.set(child.id, node.id);
      walk(node.children ?? []);
    }
  };
  walk(tree);
  return parents;
}

function findNode(tree: readonly MenuNode[], id: string): MenuNode | undefined {
  for (const node of tree) {
    if (node.id === id) return node;
    const found = findNode(node.children ?? [], id);
    if (found) return found;
  }
  return undefined;
}

/**
 * The menus a role grants after the admin ticks or unticks one. A tick grants that menu alone,
 * never what lies under it; a permission is reachable only through its menu, so ticking one also
 * ticks the menus above it, and unticking a menu unticks what lies under it. Every change shows
 * as a tick in the tree: nothing is granted that the admin cannot see ticked.
 */
export function toggleMenu(
  tree: readonly MenuNode[],
  ticked: readonly string[],
  id: string,
  on: boolean,
): string[] {
  const next = new Set(ticked);
  if (on) {
    const parents = parentsOf(tree);
    for (let at: string | undefined = id; at; at = parents.get(at)) next.add(at);
  } else {
    const drop = (node: MenuNode) => {
      next.delete(node.id);
      for (const child of node.children ?? []) drop(child);
    };
    const node = findNode(tree, id);
    if (node) drop(node);
    else next.delete(id);
  }
  return [...next];
}
