import { HistoryOutlined } from '@ant-design/icons';
import type { HistoryVersion } from '@nimbus/contract';
import { Button, Empty, Popconfirm, Popover, Spin, Tooltip } from 'antd';
import { useState, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useHistoryRetention, useVersions } from '../../../api/versions';
import { formatSize } from '../../../lib/format';
import { operatorLabel } from '../operator';

/** Within this many pixels of the list's end, the next page loads (spec §9). */
const LOAD_MARGIN_PX = 100;

/**
 * The versions of the open document, newest first, with time and operator: pages of 20 load
 * as the list nears its end; a version can be viewed (read-only) or restored.
 */
export function HistoryPopover({
  fileId,
  onShow,
  onRestore,
}: {
  fileId: string;
  onShow: (version: HistoryVersion) => void;
  onRestore: (version: HistoryVersion) => void;
}) {
  const { t } = useTranslation('editors');
  const [open, setOpen] = useState(false);
  const versions = useVersions(fileId, open);
  const items = versions.data?.pages.flatMap((p) => p.items) ?? [];
  const retention = useHistoryRetention(open).data;

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const list = event.currentTarget;
    if (list.scrollHeight - list.scrollTop - list.clientHeight > LOAD_MARGIN_PX) return;
    if (versions.hasNextPage && !versions.isFetchingNextPage) void versions.fetchNextPage();
  };

  const content = (
    <>
      {retention ? (
        <div className="nb-history__kept" data-testid="history-kept">
          {retention.versionRetentionDays > 0
            ? t('history.keptDays', {
                count: retention.versionsPerFile,
                days: retention.versionRetentionDays,
              })
            : t('history.kept', { count: retention.versionsPerFile })}
        </div>
      ) : null}
      <div className="nb-history" data-testid="history-list" onScroll={onScroll}>
        {versions.isPending ? (
          <Spin size="small" />
        ) : versions.isError && items.length === 0 ? (
          <div className="nb-history__failed">
            {t('history.failed')}{' '}
            <Button size="small" type="link" onClick={() => void versions.refetch()}>
              {t('history.retry')}
            </Button>
          </div>
        ) : items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.empty')} />
        ) : (
          <>
            {items.map((version) => (
              <div key={version.id} className="nb-history__item" data-testid="history-item">
                <div className="nb-history__facts">
                  <span className="nb-history__time">{version.uploadDate}</span>
                  <span className="nb-history__who">
                    {operatorLabel(version.metadata.operator, t)} · {formatSize(version.length)}
                  </span>
                </div>
                <Button
                  size="small"
                  type="link"
                  onClick={() => {
                    setOpen(false);
                    onShow(version);
                  }}
                >
                  {t('history.view')}
                </Button>
                <Popconfirm
                  title={t('history.restoreConfirm')}
                  okText={t('history.restore')}
                  cancelText={t('cancel')}
                  onConfirm={() => {
                    setOpen(false);
                    onRestore(version);
                  }}
                >
                  <Button size="small" type="link">
                    {t('history.restore')}
                  </Button>
                </Popconfirm>
              </div>
            ))}
            {versions.isFetchingNextPage ? <Spin size="small" /> : null}
            {versions.isError ? (
              <Button size="small" type="link" onClick={() => void versions.fetchNextPage()}>
                {t('history.retry')}
              </Button>
            ) : null}
          </>
        )}
      </div>
    </>
  );

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      autoAdjustOverflow
      open={open}
      onOpenChange={setOpen}
      title={t('history.title')}
      content={content}
      destroyOnHidden
    >
      <Tooltip title={t('history.title')}>
        <Button
          type="text"
          icon={<HistoryOutlined />}
          aria-label={t('history.title')}
          data-testid="history-button"
        />
      </Tooltip>
    </Popover>
  );
}
