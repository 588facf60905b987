import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { MenuType, type MenuNode } from '@nimbus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  AutoComplete,
  Button,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Switch,
  Tag,
  Tooltip,
  TreeSelect,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { MENU_ICONS, MenuIcon } from '../../../components/MenuIcon';
import { PageHeader } from '../../../components/PageHeader';
import { buildMenuTree, flattenMenus, menuLabel } from '../../../layout/menus';
import { deleteMenus, fetchMenus, saveMenu, systemKeys, type MenuForm } from '../api';

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
  const queryClient = useQueryClient();
  const [form] = Form.useForm<MenuForm>();
  const [saving, setSaving] = useState(false);
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

  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await saveMenu({ ...values, id: menu?.id, parentId: values.parentId || null });
      await queryClient.invalidateQueries({ queryKey: ['menu'] });
      onClose();
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={menu ? t('menus.editTitle') : t('menus.addTitle')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      confirmLoading={saving}
      destroyOnHidden
      width={640}
      okButtonProps={{ 'data-testid': 'menu-dialog-save' }}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        data-testid="menu-dialog"
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
              { max: 64 },
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
      </Form>
    </Modal>
  );
}

function findNode(nodes: MenuNode[], id: string): MenuNode | undefined {
  return flattenMenus(nodes).find((node) => node.id === id);
}

/** /setting/sys/menu: the menu tree that builds sidebars, top bar, avatar menu and access. */
export function MenusPage() {
  const { t } = useTranslation('system');
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const menus = useQuery({ queryKey: systemKeys.menus, queryFn: fetchMenus });
  const tree = useMemo(() => buildMenuTree(menus.data ?? []), [menus.data]);
  const [dialog, setDialog] = useState<{ menu: MenuNode | null; parentId: string | null } | null>(
    null,
  );

  const confirmDelete = (node: MenuNode) =>
    modal.confirm({
      title: t('menus.deleteTitle'),
      content: t(node.children?.length ? 'menus.deleteConfirmChildren' : 'menus.deleteConfirm', {
        name: menuLabel(node),
      }),
      okText: t('actions.delete'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-delete' },
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await deleteMenus(flattenMenus([node]).map((n) => n.id));
        await queryClient.invalidateQueries({ queryKey: ['menu'] });
      },
    });

  const columns: TableColumnsType<MenuNode> = [
    {
      key: 'name',
      title: t('menus.name'),
      render: (_, row) => (
        <Space>
          <MenuIcon name={row.icon} />
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
          <Tooltip title={t('menus.addChild')}>
            <Button
              type="text"
              icon={<PlusOutlined />}
              aria-label={t('menus.addChild')}
              onClick={() => setDialog({ menu: null, parentId: row.id })}
            />
          </Tooltip>
          <Tooltip title={t('actions.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              aria-label={t('actions.edit')}
              data-testid={`menu-edit-${row.id}`}
              onClick={() => setDialog({ menu: row, parentId: row.parentId })}
            />
          </Tooltip>
          <Tooltip title={t('actions.delete')}>
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('actions.delete')}
              data-testid={`menu-delete-${row.id}`}
              onClick={() => confirmDelete(row)}
            />
          </Tooltip>
        </Space>
      ),
    },
  ];

  return (
    <div className="nb-page" data-testid="menus-page">
      <PageHeader
        title={t('menus.title')}
        subtitle={t('menus.subtitle')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            data-testid="menu-add"
            onClick={() => setDialog({ menu: null, parentId: null })}
          >
            {t('menus.add')}
          </Button>
        }
      />
      <div className="nb-card" style={{ padding: 16 }}>
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
      </div>
      <MenuDialog
        open={dialog !== null}
        menu={dialog?.menu ?? null}
        parentId={dialog?.parentId ?? null}
        tree={tree}
        onClose={() => setDialog(null)}
      />
    </div>
  );
}
