import type { MenuNode } from '@nimbus/contract';
import { Tree, type TreeDataNode } from 'antd';
import { useMemo } from 'react';
import { MenuIcon } from '../../../components/MenuIcon';
import { menuLabel } from '../../../lib/menus';
import { toggleMenu } from '../menu-ticks';

function toTreeData(nodes: MenuNode[]): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.id,
    title: <span data-testid={`role-menu-${node.id}`}>{menuLabel(node)}</span>,
    icon: <MenuIcon menu={node} />,
    children: node.children?.length ? toTreeData(node.children) : undefined,
  }));
}

/**
 * The menus a role grants, as a form field: each tick stands for itself (a menu never ticks the
 * permissions under it), and a click on a label ticks it as a click on its box does.
 */
export function RoleMenuTree({
  tree,
  value = [],
  onChange,
}: {
  tree: MenuNode[];
  value?: string[];
  onChange?: (menuIds: string[]) => void;
}) {
  const treeData = useMemo(() => toTreeData(tree), [tree]);
  return (
    <Tree
      checkable
      checkStrictly
      selectable={false}
      showIcon
      defaultExpandAll
      key={treeData.length}
      treeData={treeData}
      checkedKeys={{ checked: value, halfChecked: [] }}
      onCheck={(_, info) =>
        onChange?.(toggleMenu(tree, value, String(info.node.key), info.checked))
      }
      data-testid="role-menu-tree"
    />
  );
}
