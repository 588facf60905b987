import {
  CaretRightOutlined,
  ClearOutlined,
  CloudServerOutlined,
  FileAddOutlined,
  FolderAddOutlined,
  PauseOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pickFiles, pickFolder } from '../pickers';
import { uploader } from '../uploader';
import { useUploadItems, useUploadSummary } from '../use-upload';
import { ServerUploadsDialog } from './ServerUploadsDialog';

interface ActionProps {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  testId: string;
  withLabel: boolean;
}

function Action({ label, icon, onClick, testId, withLabel }: ActionProps) {
  const button = (
    <Button
      type={withLabel ? 'default' : 'text'}
      size={withLabel ? 'middle' : 'small'}
      icon={icon}
      onClick={onClick}
      aria-label={label}
      data-testid={testId}
    >
      {withLabel ? label : null}
    </Button>
  );
  return withLabel ? button : <Tooltip title={label}>{button}</Tooltip>;
}

/** Choose files or a folder, and the actions for the whole list. */
export function UploadActions({
  withLabels = false,
  showPickers = true,
  target,
}: {
  withLabels?: boolean;
  showPickers?: boolean;
  /** Upload into this folder instead of the one on screen. */
  target?: string;
}) {
  const { t } = useTranslation('upload');
  const summary = useUploadSummary();
  const items = useUploadItems();
  const canResume = items.some((i) => i.status === 'paused' && uploader.hasFile(i.id));
  const canRetry = items.some((i) => i.status === 'failure' && uploader.hasFile(i.id));
  const canPause = items.some((i) => ['waiting', 'checking', 'uploading'].includes(i.status));
  const common = { withLabel: withLabels };
  const [serverOpen, setServerOpen] = useState(false);
  return (
    <div className="nb-upload-actions">
      {showPickers ? (
        <>
          <Action
            {...common}
            label={t('actions.uploadFiles')}
            icon={<FileAddOutlined />}
            onClick={() => pickFiles(target)}
            testId="upload-add-files"
          />
          <Action
            {...common}
            label={t('actions.uploadFolder')}
            icon={<FolderAddOutlined />}
            onClick={() => pickFolder(target)}
            testId="upload-add-folder"
          />
        </>
      ) : null}
      {canPause ? (
        <Action
          {...common}
          label={t('actions.pauseAll')}
          icon={<PauseOutlined />}
          onClick={() => uploader.pauseAll()}
          testId="upload-pause-all"
        />
      ) : null}
      {canResume ? (
        <Action
          {...common}
          label={t('actions.resumeAll')}
          icon={<CaretRightOutlined />}
          onClick={() => uploader.resumeAll()}
          testId="upload-resume-all"
        />
      ) : null}
      {canRetry ? (
        <Action
          {...common}
          label={t('actions.retryAll')}
          icon={<RedoOutlined />}
          onClick={() => uploader.retryAll()}
          testId="upload-retry-all"
        />
      ) : null}
      {summary.success > 0 ? (
        <Action
          {...common}
          label={t('actions.clearFinished')}
          icon={<ClearOutlined />}
          onClick={() => uploader.clearFinished()}
          testId="upload-clear-finished"
        />
      ) : null}
      <Action
        {...common}
        label={t('sessions.open')}
        icon={<CloudServerOutlined />}
        onClick={() => setServerOpen(true)}
        testId="upload-server-sessions"
      />
      <ServerUploadsDialog open={serverOpen} onClose={() => setServerOpen(false)} />
    </div>
  );
}
