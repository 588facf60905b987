import {
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  KeyOutlined,
  SafetyCertificateOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import {
  QUOTA_MAX_GB,
  quotaPercent,
  SHOW_NAME_MAX_LENGTH,
  type UserListItem,
} from '@nimbus/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  App,
  Avatar,
  Button,
  Form,
  Input,
  InputNumber,
  Modal,
  Progress,
  Select,
  Space,
  Tag,
  Typography,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { useEffect, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { AccessEndsNotice } from '../../../components/AccessEndsNotice';
import { roleLabel } from '../../../lib/roles';
import { DataTable, defaultPageSize } from '../../../components/DataTable';
import { IconButton } from '../../../components/IconButton';
import { TablePage } from '../../../components/TablePage';
import { useSaving } from '../../../components/use-saving';
import { copyText } from '../../../lib/clipboard';
import { quotaColor, quotaText } from '../../../lib/quota';
import { avatarColor, avatarUrl } from '../../../lib/avatar';
import { NewPasswordFields } from '../../../components/NewPasswordFields';
import { passwordRules, usernameRules } from '../../../lib/validation';
import {
  fetchRoles,
  fetchUserDefaults,
  fetchUsers,
  systemKeys,
  useDeleteUsers,
  useResetPassword,
  useResetUserMfa,
  useSaveUser,
  type UserForm,
  type UserQuery,
} from '../api';
import { createdColumn } from '../columns';
import { AddButton } from '../components/AddButton';
import { FormDialog } from '../components/FormDialog';
import { useConfirmDelete } from '../use-confirm-delete';

function UserDialog({
  user,
  open,
  onClose,
}: {
  user: UserListItem | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('system');
  const { t: tAuth } = useTranslation('auth');
  const [form] = Form.useForm<UserForm & { confirm?: string }>();
  const roles = useQuery({ queryKey: systemKeys.roles, queryFn: fetchRoles, enabled: open });
  const isEdit = Boolean(user);
  // a new user starts with the quota the server gives when none is named (NIMBUS_DEFAULT_QUOTA_GB)
  const defaults = useQuery({
    queryKey: systemKeys.userDefaults,
    queryFn: fetchUserDefaults,
    enabled: open && !isEdit,
  });
  const defaultQuota = defaults.data?.quota;
  useEffect(() => {
    if (open && !isEdit && defaultQuota !== undefined && !form.isFieldTouched('quota'))
      form.setFieldValue('quota', defaultQuota);
  }, [open, isEdit, defaultQuota, form]);

  const saveUser = useSaveUser();
  const save = async ({ confirm: _confirm, ...input }: UserForm & { confirm?: string }) => {
    await saveUser.mutateAsync({ ...input, id: user?.id });
  };

  return (
    <FormDialog
      form={form}
      open={open}
      title={isEdit ? t('users.editTitle') : t('users.addTitle')}
      testId="user-dialog"
      requiredMark="optional"
      initialValues={
        user
          ? {
              username: user.username,
              showName: user.showName,
              quota: user.quota,
              roles: user.roles,
            }
          : { quota: defaultQuota, roles: [] }
      }
      onSave={save}
      onClose={onClose}
    >
      <Form.Item
        name="username"
        label={t('users.username')}
        rules={isEdit ? [] : usernameRules(tAuth, true)}
      >
        <Input disabled={isEdit} autoComplete="off" data-testid="user-username" />
      </Form.Item>
      <Form.Item
        name="showName"
        label={t('users.showName')}
        rules={[{ max: SHOW_NAME_MAX_LENGTH }]}
      >
        <Input autoComplete="off" data-testid="user-show-name" />
      </Form.Item>
      {!isEdit ? (
        <NewPasswordFields
          passwordLabel={t('users.password')}
          confirmLabel={t('users.confirm')}
          testIds={{ password: 'user-password', confirm: 'user-confirm' }}
          plain
        />
      ) : null}
      <Form.Item
        name="quota"
        label={t('users.quota')}
        rules={[{ required: true, type: 'number', min: 0, message: t('users.quotaInvalid') }]}
      >
        <InputNumber
          min={0}
          max={QUOTA_MAX_GB}
          step={1}
          suffix="GB"
          style={{ width: '100%' }}
          data-testid="user-quota"
        />
      </Form.Item>
      <Form.Item name="roles" label={t('users.roles')}>
        <Select
          mode="multiple"
          loading={roles.isPending}
          options={(roles.data?.items ?? []).map((role) => ({
            value: role.id,
            label: roleLabel(role),
          }))}
          optionFilterProp="label"
          data-testid="user-roles"
        />
      </Form.Item>
    </FormDialog>
  );
}

/** Resets a password: the admin types one or leaves it empty for a generated one, shown once. */
function ResetPasswordDialog({
  user,
  onClose,
}: {
  user: UserListItem | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['system', 'common']);
  const { t: tAuth } = useTranslation('auth');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ password?: string }>();
  const { saving, save } = useSaving();
  const resetPassword = useResetPassword();
  const [result, setResult] = useState<string | null>(null);

  const close = () => {
    setResult(null);
    form.resetFields();
    onClose();
  };

  const submit = async () => {
    if (!user) return;
    const { password } = await form.validateFields();
    await save(async () => setResult(await resetPassword.mutateAsync({ id: user.id, password })));
  };

  return (
    <Modal
      open={Boolean(user)}
      title={t('users.resetTitle', { name: user?.username ?? '' })}
      onCancel={close}
      destroyOnHidden
      footer={
        result !== null
          ? [
              <Button key="done" type="primary" onClick={close}>
                {t('actions.done')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {t('actions.cancel')}
              </Button>,
              <Button
                key="ok"
                type="primary"
                danger
                loading={saving}
                onClick={() => void submit().catch(() => undefined)}
                data-testid="reset-password-submit"
              >
                {t('users.reset')}
              </Button>,
            ]
      }
    >
      {result !== null ? (
        <div data-testid="reset-password-result">
          <p>{t('users.newPasswordOnce')}</p>
          <Space.Compact style={{ width: '100%' }}>
            <Input readOnly value={result} className="nb-mono" data-testid="reset-password-value" />
            <Button
              icon={<CopyOutlined />}
              onClick={() =>
                void copyText(result).then((ok) =>
                  ok
                    ? message.success({ content: t('common:copied'), duration: 1 })
                    : message.warning(t('common:copyUnsupported')),
                )
              }
            >
              {t('actions.copy')}
            </Button>
          </Space.Compact>
        </div>
      ) : (
        <Form form={form} layout="vertical" preserve={false}>
          {user ? <AccessEndsNotice userId={user.id} /> : null}
          <p style={{ color: 'var(--nb-text-2)' }}>{t('users.resetHint')}</p>
          <Form.Item
            name="password"
            label={t('users.newPassword')}
            rules={passwordRules(tAuth).filter((rule) => !('required' in rule))}
          >
            <Input.Password
              autoComplete="new-password"
              placeholder={t('users.generatePlaceholder')}
              data-testid="reset-password-input"
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/** /setting/sys/user: user administration. */
export function UsersPage() {
  const { t } = useTranslation('system');
  const confirmDelete = useConfirmDelete();
  const { modal, message } = App.useApp();
  const deleteUsers = useDeleteUsers();
  const resetUserMfa = useResetUserMfa();
  const [query, setQuery] = useState<UserQuery>({
    page: 1,
    pageSize: defaultPageSize(window.innerHeight),
  });
  const [filters] = Form.useForm<{ username?: string; showName?: string }>();
  const [selected, setSelected] = useState<Key[]>([]);
  const [editing, setEditing] = useState<UserListItem | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [resetting, setResetting] = useState<UserListItem | null>(null);

  const users = useQuery({
    queryKey: systemKeys.users(query),
    queryFn: ({ signal }) => fetchUsers(query, signal),
    placeholderData: keepPreviousData,
  });
  const roles = useQuery({ queryKey: systemKeys.roles, queryFn: fetchRoles });
  // worked out on every render: a built-in role's label follows the language
  const roleNames = new Map(
    (roles.data?.items ?? []).flatMap((r) => [
      [r.id, roleLabel(r)],
      [r.code, roleLabel(r)],
    ]),
  );

  const edit = (user: UserListItem | null) => {
    setEditing(user);
    setDialogOpen(true);
  };

  /** Clear one person's second factor: they sign in with their password and enrol again. */
  const clearMfa = (user: UserListItem) =>
    modal.confirm({
      title: t('users.resetMfaTitle', { name: user.username }),
      content: t('users.resetMfaConfirm'),
      okButtonProps: { danger: true, 'data-testid': 'reset-mfa-ok' },
      okText: t('users.resetMfa'),
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await resetUserMfa.mutateAsync(user.id);
        void message.success(t('users.resetMfaDone', { name: user.username }));
      },
    });

  const remove = (rows: UserListItem[]) =>
    confirmDelete({
      title: t('users.deleteTitle'),
      content: t('users.deleteConfirm', {
        names: rows.map((r) => r.username).join(', '),
        count: rows.length,
      }),
      onOk: async () => {
        await deleteUsers.mutateAsync(rows.map((r) => r.id));
        setSelected([]);
      },
    });

  const columns: TableColumnsType<UserListItem> = [
    {
      key: 'user',
      title: t('users.username'),
      render: (_, row) => {
        const name = row.showName || row.username;
        return (
          <Space>
            <Avatar size={28} src={avatarUrl(row.avatar)} style={{ background: avatarColor(name) }}>
              {name.slice(0, 1).toUpperCase()}
            </Avatar>
            <span>
              <div style={{ fontWeight: 500 }}>{row.username}</div>
              {row.showName && row.showName !== row.username ? (
                <div style={{ color: 'var(--nb-text-2)', fontSize: 12 }}>{row.showName}</div>
              ) : null}
            </span>
            {row.creator ? <Tag color="blue">{t('users.owner')}</Tag> : null}
          </Space>
        );
      },
    },
    {
      key: 'roles',
      title: t('users.roles'),
      render: (_, row) =>
        row.roles?.length ? (
          row.roles.map((role) => <Tag key={role}>{roleNames.get(role) ?? role}</Tag>)
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      key: 'quota',
      title: t('users.storage'),
      width: 200,
      render: (_, row) => {
        const percent = quotaPercent(row.takeUpSpace, row.quota);
        return (
          <div>
            <Progress
              percent={percent}
              size="small"
              showInfo={false}
              strokeColor={quotaColor(percent)}
            />
            <span style={{ fontSize: 12, color: 'var(--nb-text-2)' }}>
              {quotaText(row.takeUpSpace, row.quota)}
            </span>
          </div>
        );
      },
    },
    createdColumn(t('users.created'), ['md']),
    {
      key: 'actions',
      title: t('actions.label'),
      width: 176,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <IconButton
            label={t('actions.edit')}
            icon={<EditOutlined />}
            testId={`user-edit-${row.username}`}
            onClick={() => edit(row)}
          />
          <IconButton
            label={t('users.resetPassword')}
            icon={<KeyOutlined />}
            testId={`user-reset-${row.username}`}
            onClick={() => setResetting(row)}
          />
          {row.mfaEnabled ? (
            <IconButton
              label={t('users.resetMfa')}
              icon={<SafetyCertificateOutlined />}
              testId={`user-reset-mfa-${row.username}`}
              onClick={() => clearMfa(row)}
            />
          ) : null}
          <IconButton
            label={t('actions.delete')}
            tooltip={row.creator ? t('users.ownerUndeletable') : undefined}
            icon={<DeleteOutlined />}
            danger
            disabled={row.creator}
            testId={`user-delete-${row.username}`}
            onClick={() => remove([row])}
          />
        </Space>
      ),
    },
  ];

  const rows = users.data?.items ?? [];
  return (
    <TablePage
      testId="users-page"
      title={t('users.title')}
      subtitle={t('users.subtitle')}
      extra={<AddButton label={t('users.add')} testId="user-add" onClick={() => edit(null)} />}
    >
      <Form
        form={filters}
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        onFinish={(values) =>
          setQuery((q) => ({
            ...q,
            page: 1,
            username: values.username?.trim() || undefined,
            showName: values.showName?.trim() || undefined,
          }))
        }
      >
        <Form.Item name="username" className="nb-filter">
          <Input
            allowClear
            placeholder={t('users.username')}
            prefix={<SearchOutlined />}
            data-testid="user-search-username"
          />
        </Form.Item>
        <Form.Item name="showName" className="nb-filter">
          <Input allowClear placeholder={t('users.showName')} />
        </Form.Item>
        <Form.Item>
          <Button htmlType="submit">{t('actions.search')}</Button>
        </Form.Item>
        {selected.length ? (
          <Form.Item>
            <Button
              danger
              icon={<DeleteOutlined />}
              onClick={() => remove(rows.filter((r) => selected.includes(r.id)))}
            >
              {t('actions.deleteSelected', { count: selected.length })}
            </Button>
          </Form.Item>
        ) : null}
      </Form>
      <DataTable<UserListItem>
        testId="users-table"
        rowKey="id"
        columns={columns}
        data={rows}
        loading={users.isFetching}
        showIndex
        scrollX={760}
        selection={{
          selectedKeys: selected,
          onChange: (keys) => setSelected(keys),
          disabled: (row) => row.creator,
        }}
        pagination={{
          page: query.page,
          pageSize: query.pageSize,
          total: users.data?.total ?? 0,
          onChange: (page, pageSize) => setQuery((q) => ({ ...q, page, pageSize })),
        }}
      />
      <UserDialog user={editing} open={dialogOpen} onClose={() => setDialogOpen(false)} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
    </TablePage>
  );
}
