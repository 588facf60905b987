import { SafetyCertificateOutlined, StopOutlined } from '@ant-design/icons';
import type { CheckFinding, DriveCheckView } from '@nimbus/contract';
import { Alert, Button, Card, Checkbox, Grid, Progress, Space, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { EmptyState } from '../../../components/EmptyState';
import { formatDateTime, formatSize } from '../../../lib/format';
import { useCancelDriveCheck, useDriveCheck, useStartDriveCheck } from '../api';

/**
 * Cloud management → Check the drive: `npm run check` as a background task. The administrator
 * chooses every hash or a sample, and repairs; the page follows the progress and then lists
 * what was found, each finding repaired or left for a person.
 */
export function DriveCheckTab() {
  const { t } = useTranslation('settings');
  const check = useDriveCheck();
  const start = useStartDriveCheck();
  const cancel = useCancelDriveCheck();
  const [full, setFull] = useState(false);
  const [repair, setRepair] = useState(false);
  const view = check.data;
  const busy = view?.state === 'running' || view?.state === 'queued';

  return (
    <div data-testid="drive-check-tab" style={{ maxWidth: 960 }}>
      <Card size="small" style={{ marginBottom: 16 }}>
        <Typography.Paragraph type="secondary">{t('check.description')}</Typography.Paragraph>
        <Space direction="vertical" size={4} style={{ marginBottom: 12 }}>
          <Checkbox
            checked={full}
            onChange={(e) => setFull(e.target.checked)}
            data-testid="drive-check-full"
          >
            {t('check.full')}
          </Checkbox>
          <Typography.Text type="secondary" style={{ marginLeft: 24, fontSize: 12 }}>
            {t('check.fullHint')}
          </Typography.Text>
          <Checkbox
            checked={repair}
            onChange={(e) => setRepair(e.target.checked)}
            data-testid="drive-check-repair"
          >
            {t('check.repair')}
          </Checkbox>
          <Typography.Text type="secondary" style={{ marginLeft: 24, fontSize: 12 }}>
            {t('check.repairHint')}
          </Typography.Text>
        </Space>
        <Space wrap style={{ display: 'flex' }}>
          <Button
            type="primary"
            icon={<SafetyCertificateOutlined />}
            loading={start.isPending}
            disabled={busy || check.isPending}
            onClick={() => start.mutate({ full, repair })}
            data-testid="drive-check-start"
          >
            {t('check.start')}
          </Button>
          {busy ? (
            <Button
              icon={<StopOutlined />}
              loading={cancel.isPending}
              onClick={() => cancel.mutate()}
              data-testid="drive-check-cancel"
            >
              {t('check.cancel')}
            </Button>
          ) : null}
        </Space>
      </Card>
      {view ? <CheckState view={view} /> : null}
    </div>
  );
}

function CheckState({ view }: { view: DriveCheckView }) {
  const { t } = useTranslation('settings');
  if (view.state === 'none')
    return (
      <EmptyState
        icon={<SafetyCertificateOutlined />}
        title={t('check.never')}
        testId="drive-check-never"
      />
    );
  if (view.state === 'running' || view.state === 'queued')
    return (
      <Card size="small" data-testid="drive-check-progress">
        <div>
          {view.state === 'queued'
            ? t('check.queued')
            : t('check.running', {
                // the task's note: a username, or the phase after the users
                note:
                  view.message === 'hashes' || view.message === 'repairs'
                    ? t(`check.phase.${view.message}`)
                    : (view.message ?? ''),
              })}
        </div>
        <Progress percent={view.progress} status="active" />
      </Card>
    );
  if (view.state === 'failed')
    return (
      <Alert
        type="error"
        showIcon
        title={t('check.failed', { message: view.message ?? '' })}
        data-testid="drive-check-failed"
      />
    );
  if (view.state === 'cancelled')
    return (
      <>
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t(view.report ? 'check.cancelled' : 'check.cancelledEarly', {
            time: view.finishedAt ? formatDateTime(new Date(view.finishedAt)) : '',
          })}
          data-testid="drive-check-cancelled"
        />
        <CheckReport view={view} />
      </>
    );
  return <CheckReport view={view} />;
}

type Row = CheckFinding & { key: string };

function CheckReport({ view }: { view: DriveCheckView }) {
  const { t } = useTranslation('settings');
  /** The finding's detail in the reader's language, from its figures. */
  const detailOf = ({ kind, facts = {} }: CheckFinding): string => {
    const figure = (value: number | string | undefined) =>
      typeof value === 'number' && kind !== 'hash-differs'
        ? formatSize(value)
        : String(value ?? '');
    return t(`check.details.${kind}`, {
      recorded: figure(facts.recorded),
      actual: figure(facts.actual),
      operation: facts.operation ?? '',
      since: facts.since ? formatDateTime(new Date(facts.since)) : '',
    });
  };
  // at a phone's width the kind goes above the item, not in a column of its own
  const narrow = !Grid.useBreakpoint().sm;
  const report = view.report;
  if (!report) return null;
  const repaired = report.findings.filter((f) => f.repaired).length;
  const columns: TableColumnsType<Row> = [
    ...(narrow
      ? []
      : [
          {
            dataIndex: 'kind',
            title: t('check.columns.kind'),
            width: 120,
            render: (kind: CheckFinding['kind']) => t(`check.kinds.${kind}`),
          },
        ]),
    {
      key: 'item',
      dataIndex: 'item',
      title: t('check.columns.item'),
      render: (item: string, row) => (
        <div style={{ overflowWrap: 'anywhere' }}>
          {narrow ? <div>{t(`check.kinds.${row.kind}`)}</div> : null}
          <span className="nb-mono">{item}</span>
          {row.user ? (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {row.user}
            </Typography.Text>
          ) : null}
        </div>
      ),
    },
    {
      key: 'state',
      dataIndex: 'repaired',
      title: t('check.columns.state'),
      render: (isRepaired: boolean, row) => (
        <div>
          <Tag color={isRepaired ? 'success' : 'warning'}>
            {isRepaired ? t('check.state.repaired') : t('check.state.person')}
          </Tag>
          <Typography.Text
            type="secondary"
            style={{ display: 'block', fontSize: 12 }}
            title={detailOf(row)}
          >
            {isRepaired ? t(`check.done.${row.kind}`) : t(`check.todo.${row.kind}`)}
          </Typography.Text>
        </div>
      ),
    },
  ];
  return (
    <Card
      size="small"
      data-testid="drive-check-report"
      title={t('check.lastRun', {
        time: view.finishedAt ? formatDateTime(new Date(view.finishedAt)) : '',
      })}
    >
      <Typography.Paragraph type="secondary" data-testid="drive-check-summary">
        {t('check.counts', {
          users: report.users,
          rows: report.rows,
          hashed: report.hashed,
          mode: view.full ? t('check.modeFull') : t('check.modeSample'),
        })}{' '}
        {report.findings.length === 0
          ? t('check.clean')
          : t('check.summary', {
              found: report.findings.length,
              repaired,
              left: report.findings.length - repaired,
            })}
      </Typography.Paragraph>
      {report.lostAndFound ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('check.lostAndFound', { path: report.lostAndFound })}
        />
      ) : null}
      {report.findings.length > 0 ? (
        <DataTable<Row>
          testId="drive-check-findings"
          rowKey="key"
          columns={columns}
          data={report.findings.map((f, i) => ({ ...f, key: String(i) }))}
        />
      ) : null}
    </Card>
  );
}
