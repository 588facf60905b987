import { FolderOpenOutlined, ReloadOutlined, ScheduleOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Progress, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { emitLiveMessage, onLiveMessage } from '../../../api/events';
import { DataTable } from '../../../components/DataTable';
import { EmptyState } from '../../../components/EmptyState';
import { TablePage } from '../../../components/TablePage';
import { applyTaskMessage, progressPercent, taskKeys, taskLink, useTasks, type Task } from '../api';

/** /setting/taskProgress: running tasks, kept live by taskProgress messages. */
export function TaskProgressPage() {
  const { t } = useTranslation('tasks');
  const queryClient = useQueryClient();
  const tasks = useTasks();

  useEffect(
    () =>
      onLiveMessage('taskProgress', (message) => {
        const body = message.body as Partial<Task> | Partial<Task>[] | null;
        queryClient.setQueryData<Task[]>(taskKeys.progress, (list = []) =>
          (Array.isArray(body) ? body : body ? [body] : []).reduce<Task[]>(applyTaskMessage, list),
        );
      }),
    [queryClient],
  );

  const count = tasks.data?.length ?? 0;
  useEffect(() => {
    if (tasks.data)
      emitLiveMessage('taskCountChange', { url: 'taskCountChange', body: tasks.data });
  }, [tasks.data]);

  const columns: TableColumnsType<Task> = [
    {
      key: 'taskId',
      dataIndex: 'taskId',
      title: t('columns.taskId'),
      width: 140,
      render: (v: string) => <span className="nb-mono">{v}</span>,
    },
    {
      key: 'type',
      dataIndex: 'type',
      title: t('columns.type'),
      width: 120,
      render: (v: string) => <Tag>{t(`types.${v}`, { defaultValue: v })}</Tag>,
    },
    {
      key: 'name',
      dataIndex: 'name',
      title: t('columns.name'),
      render: (_: string, row) => (
        <Link to={taskLink(row)} title={t('openFolder')}>
          {row.name}
        </Link>
      ),
    },
    {
      key: 'path',
      dataIndex: 'path',
      title: t('columns.path'),
      responsive: ['md'],
      render: (_: string, row) => (
        <Link to={taskLink(row)}>
          <FolderOpenOutlined /> {row.path}
        </Link>
      ),
    },
    {
      key: 'progress',
      dataIndex: 'progress',
      title: t('columns.progress'),
      width: 200,
      render: (value: Task['progress']) => {
        const percent = progressPercent(value);
        return percent === null ? (
          <span>{String(value ?? '')}</span>
        ) : (
          <Progress percent={percent} size="small" />
        );
      },
    },
  ];

  return (
    <TablePage
      testId="tasks-page"
      title={t('title')}
      subtitle={t('subtitle', { count })}
      extra={
        <Button
          icon={<ReloadOutlined />}
          onClick={() => void tasks.refetch()}
          loading={tasks.isFetching}
        >
          {t('refresh')}
        </Button>
      }
    >
      <DataTable<Task>
        testId="tasks-table"
        rowKey="taskId"
        columns={columns}
        data={tasks.data}
        loading={tasks.isPending}
        showIndex
        emptyText={
          <EmptyState
            icon={<ScheduleOutlined />}
            title={t('empty.title')}
            description={t('empty.description')}
            testId="tasks-empty"
          />
        }
      />
    </TablePage>
  );
}
