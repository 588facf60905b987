import { ReloadOutlined } from '@ant-design/icons';
import { AUDIT_ACTIONS, auditApi, type AuditAction, type AuditEntry } from '@nimbus/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callEndpointPage } from '../../../api/endpoints';
import { DataTable } from '../../../components/DataTable';

const PAGE_SIZE = 20;

/** The audit log: sign-ins and administrative and security changes, newest first. */
export function AuditTab() {
  const { t } = useTranslation('settings');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const [action, setAction] = useState<AuditAction | undefined>();
  const [username, setUsername] = useState('');
  const entries = useQuery({
    queryKey: ['settings', 'audit', page, pageSize, action, username],
    queryFn: () =>
      callEndpointPage(auditApi.list, {
        query: { pageIndex: page, pageSize, action, username: username || undefined },
      }),
    placeholderData: keepPreviousData,
  });

  const columns: TableColumnsType<AuditEntry> = [
    { title: t('audit.time'), dataIndex: 'time', width: 170 },
    { title: t('audit.user'), dataIndex: 'username', width: 140 },
    {
      title: t('audit.action'),
      dataIndex: 'action',
      width: 180,
      render: (value: AuditAction) => t(`audit.actions.${value}`),
    },
    { title: t('audit.target'), dataIndex: 'target', ellipsis: true },
    { title: t('audit.ip'), dataIndex: 'ip', width: 140 },
    {
      title: t('audit.result'),
      dataIndex: 'ok',
      width: 100,
      render: (ok: boolean) =>
        ok ? (
          <Tag color="success">{t('audit.ok')}</Tag>
        ) : (
          <Tag color="error">{t('audit.refused')}</Tag>
        ),
    },
  ];

  return (
    <Card data-testid="audit-tab">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select<AuditAction>
          allowClear
          style={{ width: 220 }}
          placeholder={t('audit.allActions')}
          value={action}
          onChange={(value) => {
            setAction(value);
            setPage(1);
          }}
          options={AUDIT_ACTIONS.map((value) => ({ value, label: t(`audit.actions.${value}`) }))}
        />
        <Input.Search
          allowClear
          style={{ width: 200 }}
          placeholder={t('audit.user')}
          onSearch={(value) => {
            setUsername(value.trim());
            setPage(1);
          }}
        />
        <Button
          icon={<ReloadOutlined />}
          loading={entries.isFetching}
          onClick={() => void entries.refetch()}
        >
          {t('audit.refresh')}
        </Button>
      </Space>
      <DataTable<AuditEntry>
        testId="audit-table"
        rowKey="id"
        columns={columns}
        data={entries.data?.items}
        loading={entries.isPending}
        scrollX={900}
        pagination={{
          page,
          pageSize,
          total: entries.data?.total ?? 0,
          onChange: (next, size) => {
            setPage(next);
            setPageSize(size);
          },
        }}
      />
    </Card>
  );
}
