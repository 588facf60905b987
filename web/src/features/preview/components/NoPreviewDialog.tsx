import { DownloadOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../../lib/format';
import { startDownload } from '../../../api/bytes';
import type { PreviewItem, PreviewSource } from '../../../actions/viewers';

interface NoPreviewDialogProps {
  item: PreviewItem;
  source: PreviewSource;
  onClose: () => void;
}

/** "Cannot preview — download?" (API-NOTES §3 step 9); without download rights, just the notice. */
export function NoPreviewDialog({ item, source, onClose }: NoPreviewDialogProps) {
  const { t } = useTranslation('preview');
  const download = source.downloadUrl(item);
  return (
    <Modal
      open
      centered
      title={t('none.title')}
      onCancel={onClose}
      footer={[
        <Button key="close" onClick={onClose}>
          {t('close')}
        </Button>,
        download ? (
          <Button
            key="download"
            type="primary"
            icon={<DownloadOutlined />}
            data-testid="no-preview-download"
            onClick={() => {
              startDownload(download, item.name);
              onClose();
            }}
          >
            {t('download')}
          </Button>
        ) : null,
      ]}
    >
      <div data-testid="no-preview">
        {t(download ? 'none.body' : 'none.bodyNoDownload', {
          name: item.name,
          size: formatSize(item.size),
        })}
      </div>
    </Modal>
  );
}
