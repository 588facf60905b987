import { MAX_DOCUMENT_BYTES, SHARE_VISITOR_OPERATOR, type HistoryVersion } from '@nimbus/contract';
import { App, Button, Empty, Modal, Popconfirm, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useHistoryRetention,
  useRecoverVersion,
  useVersions,
  versionFileUrl,
  versionText,
} from '../../../api/versions';
import { formatSize } from '../../../lib/format';
import { startDownload } from '../../../api/bytes';
import { isTextLike } from '../../../lib/file-kinds';
import type { HistoryTarget } from '../history-dialog-store';

/** What a version's text preview shows. */
interface Shown {
  version: HistoryVersion;
  text: string | null;
}

/**
 * A file's earlier versions, newest first, with when, who and how large: each can be previewed
 * (text files), downloaded, or restored (the current content becomes a version first).
 */
export function HistoryDialog({ target, onClose }: { target: HistoryTarget; onClose: () => void }) {
  const { t } = useTranslation('history');
  const { message } = App.useApp();
  const versions = useVersions(target.id, true);
  const recover = useRecoverVersion();
  const retention = useHistoryRetention(true).data;
  const items = versions.data?.pages.flatMap((p) => p.items) ?? [];
  const [shown, setShown] = useState<Shown | null>(null);
  const previewable = isTextLike({ name: target.name, suffix: target.suffix, isFolder: false });

  const who = (operator: string) =>
    operator.startsWith(SHARE_VISITOR_OPERATOR)
      ? t('shareVisitor', { link: operator.slice(SHARE_VISITOR_OPERATOR.length) })
      : operator;

  const preview = async (version: HistoryVersion) => {
    setShown({ version, text: null });
    try {
      const { contentText } = await versionText(version.id, target.id);
      setShown((now) => (now?.version.id === version.id ? { version, text: contentText } : now));
    } catch {
      setShown(null);
    }
  };

  const restore = (version: HistoryVersion) =>
    recover
      .mutateAsync({ id: version.id, fileId: target.id })
      .then(() => void message.success(t('restored', { date: version.uploadDate })));

  const list = versions.isPending ? (
    <Spin />
  ) : versions.isError && items.length === 0 ? (
    <div>
      {t('failed')}{' '}
      <Button type="link" onClick={() => void versions.refetch()}>
        {t('retry')}
      </Button>
    </div>
  ) : items.length === 0 ? (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <>
          <div>{t('empty')}</div>
          <Typography.Text type="secondary">{t('emptyHint')}</Typography.Text>
        </>
      }
    />
  ) : (
    <>
      <Typography.Paragraph type="secondary">
        {t('intro')}
        {retention ? (
          <span data-testid="versions-kept">
            {' '}
            {retention.versionRetentionDays > 0
              ? t('keptDays', {
                  count: retention.versionsPerFile,
                  days: retention.versionRetentionDays,
                })
              : t('kept', { count: retention.versionsPerFile })}
          </span>
        ) : null}
      </Typography.Paragraph>
      <ul className="nb-versions" data-testid="versions-list">
        {items.map((version) => (
          <li key={version.id} className="nb-versions__item" data-testid="versions-item">
            <div className="nb-versions__facts">
              <span className="nb-versions__time">{version.uploadDate}</span>
              <Typography.Text type="secondary">
                {who(version.metadata.operator)} · {formatSize(version.length)}
              </Typography.Text>
            </div>
            <div className="nb-versions__actions">
              {previewable && version.length <= MAX_DOCUMENT_BYTES ? (
                <Button size="small" type="link" onClick={() => void preview(version)}>
                  {t('preview')}
                </Button>
              ) : null}
              <Button
                size="small"
                type="link"
                onClick={() =>
                  startDownload(versionFileUrl(version.id, target.id), version.filename)
                }
              >
                {t('download')}
              </Button>
              <Popconfirm
                title={t('restoreConfirm')}
                okText={t('restore')}
                cancelText={t('cancel')}
                okButtonProps={{ 'data-testid': 'versions-restore-ok' }}
                onConfirm={() => restore(version)}
              >
                <Button
                  size="small"
                  type="link"
                  loading={recover.isPending && recover.variables.id === version.id}
                >
                  {t('restore')}
                </Button>
              </Popconfirm>
            </div>
          </li>
        ))}
      </ul>
      {versions.hasNextPage ? (
        <Button
          block
          loading={versions.isFetchingNextPage}
          onClick={() => void versions.fetchNextPage()}
        >
          {t('more')}
        </Button>
      ) : null}
    </>
  );

  return (
    <>
      <Modal
        open
        title={t('title', { name: target.name })}
        onCancel={onClose}
        footer={<Button onClick={onClose}>{t('close')}</Button>}
        destroyOnHidden
      >
        <div data-testid="history-dialog">{list}</div>
      </Modal>
      <Modal
        open={shown !== null}
        title={
          shown ? t('previewTitle', { name: target.name, date: shown.version.uploadDate }) : ''
        }
        onCancel={() => setShown(null)}
        footer={
          <Button data-testid="versions-preview-close" onClick={() => setShown(null)}>
            {t('close')}
          </Button>
        }
        width={720}
        destroyOnHidden
      >
        {shown?.text === null ? (
          <Spin />
        ) : (
          <pre className="nb-versions__text" data-testid="versions-preview">
            {shown?.text}
          </pre>
        )}
      </Modal>
    </>
  );
}
