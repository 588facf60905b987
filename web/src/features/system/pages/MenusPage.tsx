import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { MENU_NAME_MAX_LENGTH, MenuType, type MenuNode } from '@nimbus/contract';
import { useQuery } from '@tanstack/react-query';
import {
  AutoComplete,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Switch,
  Tag,
  TreeSelect,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { IconButton } from '../../../components/IconButton';
import { MENU_ICONS, MenuIcon } from '../../../components/MenuIcon';
import { TablePage } from '../../../components/TablePage';
import { buildMenuTree, flattenMenus, menuLabel } from '../../../lib/menus';
import { fetchMenus, systemKeys, useDeleteMenus, useSaveMenu, type MenuForm } from '../api';
import { AddButton } from '../components/AddButton';
import { FormDialog } from '../components/FormDialog';
import { useConfirmDelete } from '../use-confirm-delete';

const MENU_TYPES = [
  MenuType.MAIN,
  MenuType.SKIPPED,
  MenuType.SECTION,
  MenuType.TOP_BAR,
  MenuType.AVATAR,
] as const;
const TYPE_COLORS: Record<number, string> = {
  0: 'blue',
  1: 'default',
  2: 'purple',
  3: 'cyan',
  4: 'orange',
};
const ICON_NAMES = Object.keys(MENU_ICONS);

interface TreeOption {
  value: string;
  title: string;
  children?: TreeOption[];
}

function MenuDialog({
  open,
  menu,
  parentId,
  tree,
  onClose,
}: {
  open: boolean;
  menu: MenuNode | null;
  parentId: string | null;
  tree: MenuNode[];
  onClose: () => void;
}) {
  const { t } = useTranslation('system');
  const saveMenu = useSaveMenu();
  const [form] = Form.useForm<MenuForm>();
  const iconValue = Form.useWatch('icon', form);

  // A menu cannot move under itself or one of its descendants.
  const { i18n } = useTranslation();
  const language = i18n.language;
  const parentOptions = useMemo(() => {
    if (!language) return [];
    const blocked = new Set(
      menu
        ? flattenMenus([tree.length ? (findNode(tree, menu.id) ?? menu) : menu]).map((n) => n.id)
        : [],
    );
    const toOptions = (nodes: MenuNode[]): TreeOption[] =>
      nodes
        .filter((node) => !blocked.has(node.id))
        .map((node) => ({
          value: node.id,
          title: menuLabel(node),
          children: node.children?.length ? toOptions(node.children) : undefined,
        }));
    return toOptions(tree);
  }, [tree, menu, language]);

  const save = async (values: MenuForm) => {
    await saveMenu.mutateAsync({ ...values, id: menu?.id, parentId: values.parentId || null });
  };

  return (
    <FormDialog
      form={form}
      open={open}
      title={menu ? t('menus.editTitle') : t('menus.addTitle')}
      testId="menu-dialog"
      width={640}
      initialValues={
        menu
          ? { ...menu }
          : {
              parentId,
              name: '',
              menuType: MenuType.MAIN,
              sortNumber: 0,
              hide: false,
              path: '',
              component: '',
              icon: '',
              authority: '',
            }
      }
      onSave={save}
      onClose={onClose}
    >
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fit, minmax(240px, 1fr))',
          gap: '0 16px',
        }}
      >
        <Form.Item name="parentId" label={t('menus.parent')}>
          <TreeSelect
            treeData={parentOptions}
            allowClear
            treeDefaultExpandAll
            placeholder={t('menus.root')}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('menus.name')}
          rules={[
            { required: true, whitespace: true, message: t('menus.nameRequired') },
            { max: MENU_NAME_MAX_LENGTH },
          ]}
        >
          <Input data-testid="menu-name" />
        </Form.Item>
        <Form.Item name="menuType" label={t('menus.type')} rules={[{ required: true }]}>
          <Select
            options={MENU_TYPES.map((type) => ({ value: type, label: t(`menus.types.${type}`) }))}
          />
        </Form.Item>
        <Form.Item name="sortNumber" label={t('menus.sort')}>
          <InputNumber style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="path" label={t('menus.path')} rules={[{ max: 200 }]}>
          <Input placeholder="/setting/example" className="nb-mono" />
        </Form.Item>
        <Form.Item name="component" label={t('menus.component')} rules={[{ max: 200 }]}>
          <Input className="nb-mono" />
        </Form.Item>
        <Form.Item
          name="icon"
          label={t('menus.icon')}
          extra={t('menus.iconHint')}
          rules={[{ max: 200 }]}
        >
          <AutoComplete
            options={ICON_NAMES.map((name) => ({
              value: name,
              label: (
                <Space>
                  <MenuIcon name={name} />
                  {name}
                </Space>
              ),
            }))}
            filterOption={(input, option) =>
              String(option?.value ?? '')
                .toLowerCase()
                .includes(input.toLowerCase())
            }
          >
            <Input prefix={<MenuIcon name={iconValue || null} />} />
          </AutoComplete>
        </Form.Item>
        <Form.Item name="authority" label={t('menus.authority')} rules={[{ max: 100 }]}>
          <Input placeholder="cloud:set:sync" className="nb-mono" />
        </Form.Item>
        <Form.Item name="hide" label={t('menus.hidden')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </div>
    </FormDialog>
  );
}

function findNode(nodes: MenuNode[], id: string): MenuNode | undefined {
  return flattenMenus(nodes).find((node) => node.id === id);
}

/** /setting/sys/menu: the menu tree that builds sidebars, top bar, avatar menu and access. */
export function MenusPage() {
  const { t } = useTranslation('system');
  const confirmDelete = useConfirmDelete();
  const deleteMenus = useDeleteMenus();
  const menus = useQuery({ queryKey: systemKeys.menus, queryFn: fetchMenus });
  const tree = useMemo(() => buildMenuTree(menus.data ?? []), [menus.data]);
  const [dialog, setDialog] = useState<{ menu: MenuNode | null; parentId: string | null } | null>(
    null,
  );

  const remove = (node: MenuNode) =>
    confirmDelete({
      title: t('menus.deleteTitle'),
      content: t(node.children?.length ? 'menus.deleteConfirmChildren' : 'menus.deleteConfirm', {
        name: menuLabel(node),
      }),
      onOk: async () => {
        await deleteMenus.mutateAsync(flattenMenus([node]).map((n) => n.id));
      },
    });

  const columns: TableColumnsType<MenuNode> = [
    {
      key: 'name',
      title: t('menus.name'),
      render: (_, row) => (
        <Space>
          <MenuIcon menu={row} />
          <span style={{ fontWeight: 500 }}>{menuLabel(row)}</span>
          {row.hide ? <Tag>{t('menus.hiddenTag')}</Tag> : null}
        </Space>
      ),
    },
    {
      key: 'type',
      dataIndex: 'menuType',
      title: t('menus.type'),
      width: 150,
      render: (type: number) => (
        <Tag color={TYPE_COLORS[type]}>{t(`menus.types.${type as 0 | 1 | 2 | 3 | 4}`)}</Tag>
      ),
    },
    {
      key: 'path',
      dataIndex: 'path',
      title: t('menus.path'),
      render: (v: string | null) => (v ? <span className="nb-mono">{v}</span> : '—'),
    },
    {
      key: 'authority',
      dataIndex: 'authority',
      title: t('menus.authority'),
      responsive: ['lg'],
      render: (v: string | null) => (v ? <span className="nb-mono">{v}</span> : '—'),
    },
    { key: 'sort', dataIndex: 'sortNumber', title: t('menus.sort'), width: 80, responsive: ['md'] },
    {
      key: 'actions',
      title: t('actions.label'),
      width: 140,
      render: (_, row) => (
        <Space size={0}>
          <IconButton
            label={t('menus.addChild')}
            icon={<PlusOutlined />}
            onClick={() => setDialog({ menu: null, parentId: row.id })}
          />
          <IconButton
            label={t('actions.edit')}
            icon={<EditOutlined />}
            testId={`menu-edit-${row.id}`}
            onClick={() => setDialog({ menu: row, parentId: row.parentId })}
          />
          <IconButton
            label={t('actions.delete')}
            icon={<DeleteOutlined />}
            danger
            testId={`menu-delete-${row.id}`}
            onClick={() => remove(row)}
          />
        </Space>
      ),
    },
  ];

  return (
    <TablePage
      testId="menus-page"
      title={t('menus.title')}
      subtitle={t('menus.subtitle')}
      extra={
        <AddButton
          label={t('menus.add')}
          testId="menu-add"
          onClick={() => setDialog({ menu: null, parentId: null })}
        />
      }
    >
      <DataTable<MenuNode>
        key={tree.length}
        testId="menus-table"
        rowKey="id"
        columns={columns}
        data={tree}
        loading={menus.isFetching}
        tree
        scrollX={720}
      />
      <MenuDialog
        open={dialog !== null}
        menu={dialog?.menu ?? null}
        parentId={dialog?.parentId ?? null}
        tree={tree}
        onClose={() => setDialog(null)}
      />
    </TablePage>
  );
}
