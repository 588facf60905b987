import { ReloadOutlined, StopOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { TranscodeTask } from '@nimbus/contract';
import { App, Button, Card, Popconfirm, Progress, Space, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { EmptyState } from '../../../components/EmptyState';
import { taskLink } from '../../../lib/task-link';
import { useCancelTranscodes, useTranscodeStatus } from '../api';

const PAGE_SIZE = 10;

/**
 * Every user's transcodes under way, a page at a time, kept current while any runs: each can be
 * stopped, or all of them. A stopped video is not transcoded again until its content or these
 * settings change.
 */
export function TranscodeQueue() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const cancel = useCancelTranscodes();
  const [page, setPage] = useState({ page: 1, pageSize: PAGE_SIZE });
  const status = useTranscodeStatus(page.page, page.pageSize);
  const [stopping, setStopping] = useState<string | null>(null); // a task id, or 'all'
  const count = status.data?.count ?? 0;

  const stop = async (taskIds?: string[]) => {
    setStopping(taskIds?.[0] ?? 'all');
    try {
      const stopped = await cancel.mutateAsync(taskIds);
      void message.success(t('transcode.queue.stopped', { count: stopped }));
    } catch {
      // the client toasted the reason
    } finally {
      setStopping(null);
    }
  };

  const columns: TableColumnsType<TranscodeTask> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('transcode.queue.name'),
      ellipsis: true,
      render: (_: string, row) => (
        <Link to={taskLink(row)} title={row.path}>
          {row.name}
        </Link>
      ),
    },
    {
      key: 'username',
      dataIndex: 'username',
      title: t('transcode.queue.user'),
      width: 120,
      responsive: ['sm'],
    },
    {
      key: 'progress',
      dataIndex: 'progress',
      title: t('transcode.queue.progress'),
      width: 140,
      render: (progress: number, row) =>
        row.state === 'running' ? (
          <Progress percent={progress} size="small" status="active" />
        ) : (
          <Tag>{t('transcode.queue.queued')}</Tag>
        ),
    },
    {
      key: 'action',
      title: '',
      width: 56,
      align: 'center',
      render: (_: unknown, row) => (
        <Popconfirm
          title={t('transcode.queue.stopOne', { name: row.name })}
          okText={t('transcode.queue.stop')}
          okButtonProps={{ danger: true }}
          onConfirm={() => stop([row.taskId])}
        >
          <Button
            type="text"
            danger
            icon={<StopOutlined />}
            loading={stopping === row.taskId}
            aria-label={t('transcode.queue.stop')}
            title={t('transcode.queue.stop')}
          />
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card
      size="small"
      data-testid="transcode-queue"
      title={t('transcode.queue.title', { count })}
      style={{ maxWidth: 900, marginTop: 24 }}
      extra={
        <Space size={4}>
          <Button
            size="small"
            icon={<ReloadOutlined />}
            onClick={() => void status.refetch()}
            loading={status.isFetching}
            aria-label={t('transcode.queue.refresh')}
            title={t('transcode.queue.refresh')}
          />
          <Popconfirm
            title={t('transcode.queue.stopAllConfirm', { count })}
            okText={t('transcode.queue.stopAll')}
            okButtonProps={{ danger: true }}
            onConfirm={() => stop()}
            disabled={count === 0}
          >
            <Button size="small" danger disabled={count === 0} loading={stopping === 'all'}>
              {t('transcode.queue.stopAll')}
            </Button>
          </Popconfirm>
        </Space>
      }
    >
      <DataTable<TranscodeTask>
        testId="transcode-queue-table"
        rowKey="taskId"
        columns={columns}
        data={status.data?.tasks}
        loading={status.isPending}
        pagination={
          count > page.pageSize
            ? {
                page: page.page,
                pageSize: page.pageSize,
                total: count,
                onChange: (next, pageSize) => setPage({ page: next, pageSize }),
              }
            : undefined
        }
        emptyText={
          <EmptyState
            icon={<VideoCameraOutlined />}
            title={t('transcode.queue.empty')}
            description={t('transcode.queue.emptyHint')}
            testId="transcode-queue-empty"
          />
        }
      />
    </Card>
  );
}
