import { CloseOutlined, MinusOutlined } from '@ant-design/icons';
import { Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../../components/IconButton';
import { useUploadStore } from '../store';
import { closeUploader } from '../close';
import { useUploadItems, useUploadSummary, useUploadTarget } from '../use-upload';
import { UploadActions } from './UploadActions';
import { summaryData } from './summary-data';
import { UploadList } from './UploadList';
import { UploadSummaryText } from './UploadSummaryText';

/** The desktop file-list panel (about 720 × 300) the ball expands into. */
export function UploadPanel() {
  const { t } = useTranslation('upload');
  const open = useUploadStore((s) => s.panelOpen);
  const items = useUploadItems();
  const summary = useUploadSummary();
  const { target } = useUploadTarget();
  if (!open) return null;
  return (
    <section
      className="nb-upload-panel"
      data-testid="upload-panel"
      aria-label={t('title')}
      {...summaryData(summary)}
    >
      <header className="nb-upload-panel__header">
        <div className="nb-upload-panel__title">
          <strong>{t('title')}</strong>
          <UploadSummaryText />
        </div>
        <UploadActions target={target} />
        <span className="nb-upload-panel__divider" aria-hidden="true" />
        <IconButton
          label={t('actions.collapse')}
          icon={<MinusOutlined />}
          size="small"
          testId="upload-collapse"
          onClick={() => useUploadStore.getState().setPanelOpen(false)}
        />
        <IconButton
          label={t('actions.close')}
          icon={<CloseOutlined />}
          size="small"
          testId="upload-close"
          onClick={() => void closeUploader()}
        />
      </header>
      <Progress
        className="nb-upload-panel__progress"
        percent={summary.percent}
        showInfo={false}
        size={{ height: 2 }}
        status={summary.failure && !summary.isUploading ? 'exception' : 'normal'}
      />
      {items.length ? (
        <UploadList items={items} className="nb-upload-panel__list" />
      ) : (
        <div className="nb-upload-panel__empty">{t('transfer.empty')}</div>
      )}
    </section>
  );
}
