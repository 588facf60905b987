import { CheckCircleFilled, CloseCircleFilled, CloseOutlined } from '@ant-design/icons';
import { Button, Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../../lib/format';
import type { UploadItem } from '../../upload/types';

/** 0..1 of the step an upload is in: its checksum, then its bytes. */
function progressOf(item: UploadItem): number {
  if (item.status === 'checking') return item.checkProgress;
  return item.size > 0 ? item.uploaded / item.size : 0;
}

/** What a visitor is uploading into the share, file by file. */
export function ShareUploadList({ items, onClose }: { items: UploadItem[]; onClose: () => void }) {
  const { t } = useTranslation('share');
  if (items.length === 0) return null;
  const done = items.filter((item) => item.status === 'success').length;
  const finished = items.every((item) => item.status === 'success' || item.status === 'failure');
  return (
    <section
      className="nb-share-uploads"
      data-testid="share-uploads"
      data-done={done}
      data-count={items.length}
    >
      <header className="nb-share-uploads__header">
        <strong data-testid="share-uploads-title">
          {t(finished ? 'page.uploadedOf' : 'page.uploading', { done, count: items.length })}
        </strong>
        {finished ? (
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined />}
            onClick={onClose}
            aria-label={t('page.close')}
          />
        ) : null}
      </header>
      <ul>
        {items.map((item) => (
          <li key={item.id} data-status={item.status}>
            <span className="nb-share-uploads__name" title={item.relativePath}>
              {item.relativePath}
            </span>
            <span className="nb-share-uploads__size">{formatSize(item.size)}</span>
            {item.status === 'success' ? (
              <CheckCircleFilled
                className="nb-share-uploads__ok"
                aria-label={t('status.success')}
              />
            ) : item.status === 'failure' ? (
              <span className="nb-share-uploads__error" title={item.error}>
                <CloseCircleFilled /> {item.error ?? t('status.failure')}
              </span>
            ) : (
              <span className="nb-share-uploads__progress">
                <Progress
                  percent={Math.round(progressOf(item) * 100)}
                  size="small"
                  showInfo={false}
                />
                <span>{t(`status.${item.status === 'paused' ? 'waiting' : item.status}`)}</span>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
