import { CheckOutlined, ExclamationOutlined, PauseOutlined } from '@ant-design/icons';
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
  const center = failed ? (
    <ExclamationOutlined />
  ) : paused ? (
    <PauseOutlined />
  ) : finished && summary.percent >= 100 ? (
    <CheckOutlined />
  ) : (
    `${summary.percent}%`
  );
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
        status={failed ? 'exception' : finished && !paused ? 'success' : 'normal'}
        format={() => <span className="nb-upload-ball__value">{center}</span>}
      />
      {summary.isUploading ? (
        <span className="nb-upload-ball__speed" data-testid="upload-ball-speed">
          {formatSpeed(summary.speed)}
        </span>
      ) : null}
    </button>
  );
}
