import { CheckOutlined, ExclamationOutlined } from '@ant-design/icons';
import { Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useAppStore } from '../../../stores/app';
import { formatSpeed } from '../progress';
import { useUploadStore } from '../store';
import { useUploadSummary } from '../use-upload';

export const TRANSFER_PATH = '/upload/index_m';

/**
 * The floating progress ball: overall percentage and speed. It opens the panel on desktop and
 * the file-transfer page on phones (spec §2).
 */
export function UploadBall() {
  const { t } = useTranslation('upload');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isMobile = useAppStore((s) => s.device === 'mobile');
  const panelOpen = useUploadStore((s) => s.panelOpen);
  const summary = useUploadSummary();
  if (!summary.count) return null;
  if (isMobile ? pathname === TRANSFER_PATH : panelOpen) return null;

  const finished = !summary.isUploading;
  const failed = finished && summary.failure > 0;
  const paused = finished && !failed && summary.paused > 0;
  const done = finished && !failed && !paused;
  const center = failed ? (
    <ExclamationOutlined />
  ) : done ? (
    <CheckOutlined />
  ) : (
    `${summary.percent}%`
  );
  const label = summary.isUploading
    ? summary.speed > 0
      ? formatSpeed(summary.speed)
      : t('status.uploading')
    : failed
      ? t('summary.failed', { count: summary.failure })
      : paused
        ? t('status.paused')
        : t('status.success');
  return (
    <button
      type="button"
      className={`nb-upload-ball${isMobile ? ' nb-upload-ball--mobile' : ''}`}
      data-testid="upload-ball"
      data-percent={summary.percent}
      data-count={summary.count}
      data-success={summary.success}
      data-failure={summary.failure}
      data-unfinished={summary.unfinished}
      aria-label={`${t('actions.expand')}: ${t('ballLabel', { percent: summary.percent })}`}
      onClick={() => {
        if (isMobile) void navigate(TRANSFER_PATH);
        else useUploadStore.getState().setPanelOpen(true);
      }}
    >
      <Progress
        type="circle"
        size={56}
        percent={summary.percent}
        strokeWidth={7}
        status={failed ? 'exception' : done ? 'success' : 'normal'}
        format={() => <span className="nb-upload-ball__value">{center}</span>}
      />
      <span
        className={`nb-upload-ball__label${failed ? ' nb-upload-ball__label--error' : ''}`}
        data-testid={summary.isUploading ? 'upload-ball-speed' : 'upload-ball-label'}
      >
        {label}
      </span>
    </button>
  );
}
