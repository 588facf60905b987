import { CloseOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { startDownload } from '../../files/api';
import { FileIcon } from '../../files/components/FileIcon';
import { iframeAddress, iframeRuleFor } from '../iframe-rules';
import type { ViewerProps } from '../registry';
import { previewSuffix } from '../use-preview';

/** A viewer page of the Preview Config (pdf.js, epub.js, or the admin's own) full screen. */
export default function IframeViewer({ item, source, iframe, onClose }: ViewerProps) {
  const { t } = useTranslation('preview');
  const rule = iframeRuleFor(iframe, previewSuffix(item));
  const downloadUrl = source.downloadUrl(item);
  return (
    <Modal
      open
      onCancel={onClose}
      width="100%"
      className="nb-iframe-viewer"
      closable={false}
      footer={null}
      destroyOnHidden
      styles={{ body: { padding: 0 } }}
      title={
        <span className="nb-iframe-viewer__bar">
          <FileIcon item={item} size={22} />
          <span className="nb-iframe-viewer__name">{item.name}</span>
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
            data-testid="iframe-viewer-close"
            onClick={onClose}
          />
        </span>
      }
    >
      {rule ? (
        <iframe
          className="nb-iframe-viewer__frame"
          data-testid="iframe-viewer"
          title={`${rule.name}: ${item.name}`}
          src={iframeAddress(rule, source.bytesUrl(item))}
          allowFullScreen
        />
      ) : null}
    </Modal>
  );
}
