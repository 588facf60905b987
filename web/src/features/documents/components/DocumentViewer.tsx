import { CloseOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { startDownload } from '../../files/api';
import { FileIcon } from '../../files/components/FileIcon';
import type { ViewerProps } from '../../preview/registry';
import { editsInOnlyOffice, useOfficeConfig } from '../api';
import { documentPageAddress, onlyOfficePageAddress } from '../viewer-pages';
import { isOfficeDocument } from '../viewers';
import '../documents.css';

/** A document full screen in its bundled viewer page: office files as PDF, PDF, EPUB. */
export default function DocumentViewer({ item, source, onClose }: ViewerProps) {
  const { t } = useTranslation('documents');
  const { t: tp } = useTranslation('preview');
  const downloadUrl = source.downloadUrl(item);
  const office = isOfficeDocument(item);
  const config = useOfficeConfig(office && source.kind === 'owner');
  const waiting = office && source.kind === 'owner' && config.isPending;
  const editor = editsInOnlyOffice(item, source, config.data);
  const title = office && !editor ? t('office.title', { name: item.name }) : item.name;

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
      {waiting ? null : (
        <iframe
          className="nb-document-viewer__frame"
          data-testid={editor ? 'onlyoffice-viewer' : 'document-viewer'}
          title={title}
          src={editor ? onlyOfficePageAddress(item) : documentPageAddress(item, source)}
          allowFullScreen
        />
      )}
    </Modal>
  );
}
