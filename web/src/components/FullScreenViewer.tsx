import { CloseOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { startDownload } from '../api/bytes';
import { FileIcon } from './FileIcon';
import type { PreviewItem } from '../actions/viewers';
import './full-screen-viewer.css';

/**
 * A viewer over the whole window: a bar with the file's icon and title, a download button when
 * there is an address to download from, and a close button; the viewer's body below it.
 */
export function FullScreenViewer({
  item,
  title = item.name,
  downloadUrl,
  className,
  closeTestId,
  actions,
  escapeCloses = true,
  onClose,
  children,
}: {
  item: PreviewItem;
  title?: ReactNode;
  downloadUrl?: string | null;
  className?: string;
  closeTestId: string;
  /** More buttons of the bar, before download and close. */
  actions?: ReactNode;
  /** Whether Escape closes it (an editor keeps Escape for itself: leaving a field). */
  escapeCloses?: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('preview');
  return (
    <Modal
      open
      onCancel={onClose}
      keyboard={escapeCloses}
      width="100%"
      className={className ? `nb-iframe-viewer ${className}` : 'nb-iframe-viewer'}
      closable={false}
      footer={null}
      destroyOnHidden
      styles={{ body: { padding: 0 } }}
      title={
        <span className="nb-iframe-viewer__bar">
          <FileIcon item={item} size={22} />
          <span className="nb-iframe-viewer__name">{title}</span>
          {actions}
          {downloadUrl ? (
            <Button
              type="text"
              icon={<DownloadOutlined />}
              aria-label={t('download')}
              onClick={() => startDownload(downloadUrl, item.name)}
            />
          ) : null}
          <Button
            type="text"
            icon={<CloseOutlined />}
            aria-label={t('close')}
            data-testid={closeTestId}
            onClick={onClose}
          />
        </span>
      }
    >
      {children}
    </Modal>
  );
}
