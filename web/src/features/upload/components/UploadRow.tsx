import {
  CaretRightOutlined,
  CheckCircleFilled,
  CloseOutlined,
  ExclamationCircleFilled,
  FileOutlined,
  FolderOpenOutlined,
  LoadingOutlined,
  PauseOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import { formatSize } from '@nimbus/contract';
import { Button, Progress, Tooltip } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { parentOf } from '../paths';
import { pickAgain } from '../pickers';
import { formatSpeed } from '../progress';
import type { UploadItem } from '../types';
import { uploader } from '../uploader';
import { displayFolder } from '../use-upload';

function percentOf(item: UploadItem): number {
  if (item.status === 'success') return 100;
  if (item.status === 'checking') return Math.floor(item.checkProgress * 100);
  if (item.size <= 0) return 0;
  return Math.min(100, Math.floor((item.uploaded / item.size) * 100));
}

function StatusText({ item }: { item: UploadItem }) {
  const { t } = useTranslation('upload');
  const percent = percentOf(item);
  switch (item.status) {
    case 'waiting':
      return <span>{t('status.waiting')}</span>;
    case 'checking':
      return <span>{t('status.checking', { percent })}</span>;
    case 'uploading':
      return (
        <span>
          {percent}%{item.speed > 0 ? ` · ${formatSpeed(item.speed)}` : ''}
        </span>
      );
    case 'paused':
      return item.needsFile ? (
        <span className="nb-upload-row__warn">{t('needsFile')}</span>
      ) : (
        <span>
          {t('status.paused')} · {percent}%
        </span>
      );
    case 'merging':
      return (
        <span>
          {t('status.merging')}
          {item.mergeProgress !== undefined ? ` ${item.mergeProgress}%` : ''}
        </span>
      );
    case 'success':
      return (
        <span className="nb-upload-row__ok">
          {item.instant ? t('status.instant') : t('status.success')}
        </span>
      );
    case 'failure':
      return (
        <Tooltip title={item.error}>
          <span className="nb-upload-row__error" data-testid="upload-item-error">
            {item.error || t('status.failure')}
          </span>
        </Tooltip>
      );
  }
}

function RowButton({
  label,
  icon,
  onClick,
  testId,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  testId: string;
}) {
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        icon={icon}
        aria-label={label}
        data-testid={testId}
        onClick={onClick}
      />
    </Tooltip>
  );
}

function statusIcon(item: UploadItem): ReactNode {
  switch (item.status) {
    case 'success':
      return <CheckCircleFilled className="nb-upload-row__ok" />;
    case 'failure':
      return <ExclamationCircleFilled className="nb-upload-row__error" />;
    case 'checking':
    case 'merging':
      return <LoadingOutlined />;
    default:
      return <FileOutlined />;
  }
}

/** One file of the upload list: name, where it goes, status, progress and its actions. */
export function UploadRow({ item, style }: { item: UploadItem; style?: CSSProperties }) {
  const { t } = useTranslation('upload');
  const percent = percentOf(item);
  const folder = parentOf(item.relativePath);
  const target = displayFolder(
    `${item.currentDirectory.replace(/\/+$/, '')}${folder ? `/${folder}` : ''}`,
    t('rootFolder'),
  );
  const actions: ReactNode[] = [];
  if (['waiting', 'checking', 'uploading'].includes(item.status)) {
    actions.push(
      <RowButton
        key="pause"
        label={t('actions.pause')}
        icon={<PauseOutlined />}
        onClick={() => uploader.pause(item.id)}
        testId="upload-item-pause"
      />,
    );
  }
  if (item.status === 'paused') {
    actions.push(
      item.needsFile ? (
        <RowButton
          key="choose"
          label={t('actions.chooseAgain')}
          icon={<FolderOpenOutlined />}
          onClick={() => pickAgain(item.id)}
          testId="upload-item-choose"
        />
      ) : (
        <RowButton
          key="resume"
          label={t('actions.resume')}
          icon={<CaretRightOutlined />}
          onClick={() => uploader.resume(item.id)}
          testId="upload-item-resume"
        />
      ),
    );
  }
  if (item.status === 'failure' && uploader.hasFile(item.id)) {
    actions.push(
      <RowButton
        key="retry"
        label={t('actions.retry')}
        icon={<RedoOutlined />}
        onClick={() => uploader.retry(item.id)}
        testId="upload-item-retry"
      />,
    );
  }
  if (item.status !== 'merging' && item.status !== 'success') {
    actions.push(
      <RowButton
        key="cancel"
        label={t('actions.cancel')}
        icon={<CloseOutlined />}
        onClick={() => uploader.cancel(item.id)}
        testId="upload-item-cancel"
      />,
    );
  }
  const strokeStatus =
    item.status === 'failure'
      ? 'exception'
      : item.status === 'success'
        ? 'success'
        : item.status === 'uploading' || item.status === 'merging' || item.status === 'checking'
          ? 'active'
          : 'normal';
  return (
    <div
      className={`nb-upload-row nb-upload-row--${item.status}`}
      style={style}
      role="listitem"
      data-testid="upload-item"
      data-status={item.status}
      data-name={item.relativePath}
      data-percent={percent}
      data-needs-file={item.needsFile ? 'true' : undefined}
    >
      <span className="nb-upload-row__icon" aria-hidden="true">
        {statusIcon(item)}
      </span>
      <div className="nb-upload-row__main">
        <div className="nb-upload-row__line">
          <span className="nb-upload-row__name" title={item.relativePath}>
            {item.name}
          </span>
          <span className="nb-upload-row__size">{formatSize(item.size)}</span>
        </div>
        <Progress
          percent={percent}
          showInfo={false}
          size={{ height: 3 }}
          status={strokeStatus}
          strokeColor={item.status === 'checking' ? '#faad14' : undefined}
          className="nb-upload-row__bar"
          aria-hidden
        />
        <div className="nb-upload-row__line nb-upload-row__meta">
          <span className="nb-upload-row__status" data-testid="upload-item-status">
            <StatusText item={item} />
          </span>
          <span className="nb-upload-row__target" title={target}>
            {target}
          </span>
        </div>
      </div>
      <div className="nb-upload-row__actions">{actions}</div>
    </div>
  );
}
