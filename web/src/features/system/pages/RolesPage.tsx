import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import {
  ROLE_CODE_PATTERN,
  ROLE_NAME_MAX_LENGTH,
  ROLE_REMARKS_MAX_LENGTH,
  type Role,
} from '@nimbus/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Space, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { IconButton } from '../../../components/IconButton';
import { TablePage } from '../../../components/TablePage';
import { buildMenuTree } from '../../../lib/menus';
import { roleLabel } from '../../../lib/roles';
import {
  fetchMenus,
  fetchRoles,
  systemKeys,
  useDeleteRoles,
  useSaveRole,
  type RoleForm,
} from '../api';
import { createdColumn } from '../columns';
import { AddButton } from '../components/AddButton';
import { FormDialog } from '../components/FormDialog';
import { RoleMenuTree } from '../components/RoleMenuTree';
import { useConfirmDelete } from '../use-confirm-delete';

function RoleDialog({
  role,
  open,
  onClose,
}: {
  role: Role | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(['system', 'common']);
  const saveRole = useSaveRole();
  const [form] = Form.useForm<RoleForm>();
  const menus = useQuery({ queryKey: systemKeys.menus, queryFn: fetchMenus, enabled: open });
  const tree = useMemo(() => buildMenuTree(menus.data ?? []), [menus.data]);

  const save = async (values: RoleForm) => {
    await saveRole.mutateAsync({ ...values, id: role?.id });
  };

  return (
    <FormDialog
      form={form}
      open={open}
      title={role ? t('roles.editTitle') : t('roles.addTitle')}
      testId="role-dialog"
      initialValues={
        role
          ? { name: role.name, code: role.code, remarks: role.remarks ?? '', menuIds: role.menuIds }
          : { name: '', code: '', remarks: '', menuIds: [] }
      }
      onSave={save}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('roles.name')}
        rules={[
          { required: true, whitespace: true, message: t('roles.nameRequired') },
          { max: ROLE_NAME_MAX_LENGTH },
        ]}
      >
        <Input data-testid="role-name" />
      </Form.Item>
      <Form.Item
        name="code"
        label={t('roles.code')}
        rules={[
          { required: true, message: t('roles.codeRequired') },
          { pattern: ROLE_CODE_PATTERN, message: t('roles.codePattern') },
        ]}
      >
        <Input className="nb-mono" disabled={Boolean(role?.builtin)} data-testid="role-code" />
      </Form.Item>
      <Form.Item
        name="remarks"
        label={t('roles.remarks')}
        rules={[{ max: ROLE_REMARKS_MAX_LENGTH }]}
      >
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
      </Form.Item>
      <Form.Item label={t('roles.menus')} required extra={t('roles.menusHint')}>
        <div
          style={{
            maxHeight: 320,
            overflow: 'auto',
            border: '1px solid var(--nb-border)',
            borderRadius: 8,
            padding: 8,
          }}
        >
          {tree.length ? (
            <Form.Item
              name="menuIds"
              noStyle
              rules={[{ type: 'array', min: 1, message: t('roles.menusRequired') }]}
            >
              <RoleMenuTree tree={tree} />
            </Form.Item>
          ) : (
            <span style={{ color: 'var(--nb-text-3)' }}>
              {menus.isPending ? t('common:loading') : t('roles.noMenus')}
            </span>
          )}
        </div>
      </Form.Item>
    </FormDialog>
  );
}

/** /setting/sys/role: roles and the menus each grants. */
export function RolesPage() {
  const { t } = useTranslation('system');
  const confirmDelete = useConfirmDelete();
  const deleteRoles = useDeleteRoles();
  const roles = useQuery({ queryKey: systemKeys.roles, queryFn: fetchRoles });
  const [editing, setEditing] = useState<Role | null>(null);
  const [open, setOpen] = useState(false);

  const edit = (role: Role | null) => {
    setEditing(role);
    setOpen(true);
  };

  const remove = (role: Role) =>
    confirmDelete({
      title: t('roles.deleteTitle'),
      content: t('roles.deleteConfirm', { name: roleLabel(role) }),
      onOk: async () => {
        await deleteRoles.mutateAsync([role.id]);
      },
    });

  const columns: TableColumnsType<Role> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('roles.name'),
      sorter: (a, b) => roleLabel(a).localeCompare(roleLabel(b)),
      render: (_: string, row) => (
        <Space>
          <span style={{ fontWeight: 500 }}>{roleLabel(row)}</span>
          {row.builtin ? <Tag>{t('roles.builtin')}</Tag> : null}
        </Space>
      ),
    },
    {
      key: 'code',
      dataIndex: 'code',
      title: t('roles.code'),
      render: (code: string) => <span className="nb-mono">{code}</span>,
    },
    {
      key: 'remarks',
      dataIndex: 'remarks',
      title: t('roles.remarks'),
      responsive: ['md'],
      render: (v: string | null) => v || '—',
    },
    {
      key: 'menus',
      title: t('roles.menuCount'),
      width: 110,
      render: (_, row) => row.menuIds?.length ?? 0,
    },
    createdColumn(t('users.created'), ['lg']),
    {
      key: 'actions',
      title: t('actions.label'),
      width: 110,
      render: (_, row) => (
        <Space size={0}>
          <IconButton
            label={t('actions.edit')}
            icon={<EditOutlined />}
            testId={`role-edit-${row.code}`}
            onClick={() => edit(row)}
          />
          <IconButton
            label={t('actions.delete')}
            tooltip={row.builtin ? t('roles.builtinUndeletable') : undefined}
            icon={<DeleteOutlined />}
            danger
            disabled={row.builtin}
            testId={`role-delete-${row.code}`}
            onClick={() => remove(row)}
          />
        </Space>
      ),
    },
  ];

  return (
    <TablePage
      testId="roles-page"
      title={t('roles.title')}
      subtitle={t('roles.subtitle')}
      extra={<AddButton label={t('roles.add')} testId="role-add" onClick={() => edit(null)} />}
    >
      <DataTable<Role>
        testId="roles-table"
        rowKey="id"
        columns={columns}
        data={roles.data?.items}
        loading={roles.isFetching}
        showIndex
        scrollX={640}
      />
      <RoleDialog role={editing} open={open} onClose={() => setOpen(false)} />
    </TablePage>
  );
}
