import { CloseOutlined, DownOutlined, UpOutlined } from '@ant-design/icons';
import { Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../../components/IconButton';
import { useUploadStore } from '../store';
import { closeUploader } from '../close';
import { useUploadItems, useUploadSummary, useUploadTarget } from '../use-upload';
import { UploadActions } from './UploadActions';
import { summaryData } from './summary-data';
import { ROW_HEIGHT, UploadList } from './UploadList';
import { UploadSummaryText } from './UploadSummaryText';

/** The list shows this many rows before it scrolls: the panel stays small beside the files. */
const VISIBLE_ROWS = 3.5;

/**
 * The desktop upload panel in the corner (about 420 × 300): a one-line bar with the counts,
 * speed, time left and progress, which unfolds into the actions and the list.
 */
export function UploadPanel() {
  const { t } = useTranslation('upload');
  const open = useUploadStore((s) => s.panelOpen);
  const collapsed = useUploadStore((s) => s.panelCollapsed);
  const items = useUploadItems();
  const summary = useUploadSummary();
  const { target } = useUploadTarget();
  if (!open) return null;
  const toggle = () => useUploadStore.getState().setPanelCollapsed(!collapsed);
  return (
    <section
      className={`nb-upload-panel${collapsed ? ' nb-upload-panel--collapsed' : ''}`}
      data-testid="upload-panel"
      data-collapsed={collapsed}
      aria-label={t('title')}
      onPointerEnter={() => useUploadStore.setState({ panelHovered: true })}
      onPointerLeave={() => useUploadStore.setState({ panelHovered: false })}
      {...summaryData(summary)}
    >
      <header className="nb-upload-panel__header">
        <div className="nb-upload-panel__title">
          <strong>{t('title')}</strong>
          <UploadSummaryText />
        </div>
        <IconButton
          label={collapsed ? t('actions.expand') : t('actions.collapse')}
          icon={collapsed ? <UpOutlined /> : <DownOutlined />}
          size="small"
          testId={collapsed ? 'upload-expand' : 'upload-collapse'}
          onClick={toggle}
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
      {collapsed ? null : (
        <>
          <div className="nb-upload-panel__toolbar">
            <UploadActions target={target} />
          </div>
          {items.length ? (
            <UploadList
              items={items}
              className="nb-upload-panel__list"
              style={{ height: Math.min(items.length, VISIBLE_ROWS) * ROW_HEIGHT }}
            />
          ) : (
            <div className="nb-upload-panel__empty">{t('transfer.empty')}</div>
          )}
        </>
      )}
    </section>
  );
}
