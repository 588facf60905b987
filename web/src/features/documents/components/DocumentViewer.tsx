import { CloseOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { startDownload } from '../../files/api';
import { FileIcon } from '../../files/components/FileIcon';
import type { ViewerProps } from '../../preview/registry';
import { documentPageAddress } from '../viewer-pages';
import { isOfficeDocument } from '../viewers';
import '../documents.css';

/** A document full screen in its bundled viewer page: office files as PDF, PDF, EPUB. */
export default function DocumentViewer({ item, source, onClose }: ViewerProps) {
  const { t } = useTranslation('documents');
  const { t: tp } = useTranslation('preview');
  const downloadUrl = source.downloadUrl(item);
  const title = isOfficeDocument(item) ? t('office.title', { name: item.name }) : item.name;
  return (
    <Modal
      open
      onCancel={onClose}
      width="100%"
      className="nb-iframe-viewer nb-document-viewer"
      closable={false}
      footer={null}
      destroyOnHidden
      styles={{ body: { padding: 0 } }}
      title={
        <span className="nb-iframe-viewer__bar">
          <FileIcon item={item} size={22} />
          <span className="nb-iframe-viewer__name">{title}</span>
          {downloadUrl ? (
            <Button
              type="text"
              icon={<DownloadOutlined />}
              aria-label={tp('download')}
              onClick={() => startDownload(downloadUrl, item.name)}
            />
          ) : null}
          <Button
            type="text"
            icon={<CloseOutlined />}
            aria-label={tp('close')}
            data-testid="document-viewer-close"
            onClick={onClose}
          />
        </span>
      }
    >
      <iframe
        className="nb-document-viewer__frame"
        data-testid="document-viewer"
        title={title}
        src={documentPageAddress(item, source)}
        allowFullScreen
      />
    </Modal>
  );
}
