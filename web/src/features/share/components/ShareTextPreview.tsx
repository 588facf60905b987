import { DownloadOutlined } from '@ant-design/icons';
import type { PublicFileView } from '@nimbus/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText, ApiError } from '../../../api/client';
import { formatSize } from '../../../lib/format';
import { FileIcon } from '../../files/components/FileIcon';
import { previewSharedText, shareKeys } from '../api';

/** The server reads at most this much of a shared text file. */
const TEXT_LIMIT = 2 * 1024 * 1024;

interface ShareTextPreviewProps {
  shareId: string;
  item: PublicFileView | null;
  canDownload: boolean;
  onDownload: (item: PublicFileView) => void;
  onClose: () => void;
  mobile: boolean;
}

/** A read-only look at a shared text file. */
export function ShareTextPreview({
  shareId,
  item,
  canDownload,
  onDownload,
  onClose,
  mobile,
}: ShareTextPreviewProps) {
  const { t } = useTranslation('share');
  const text = useQuery({
    queryKey: shareKeys.text(shareId, item?.id ?? ''),
    queryFn: ({ signal }) => previewSharedText(shareId, item!.id, signal),
    enabled: Boolean(item),
    retry: false,
  });
  const failure =
    text.error instanceof ApiError && text.error.envelope
      ? errorText(text.error.envelope)
      : t('page.cannotPreview');
  return (
    <Modal
      open={Boolean(item)}
      onCancel={onClose}
      width={mobile ? '100%' : 900}
      centered={!mobile}
      destroyOnHidden
      title={
        item ? (
          <span className="nb-dialog-title">
            <FileIcon item={item} size={22} />
            <span className="nb-share-dialog__name">{item.name}</span>
            <span className="nb-share-text__size">{formatSize(item.size)}</span>
          </span>
        ) : null
      }
      footer={[
        canDownload ? (
          <Button
            key="download"
            icon={<DownloadOutlined />}
            onClick={() => item && onDownload(item)}
          >
            {t('page.download')}
          </Button>
        ) : null,
        <Button key="close" type="primary" onClick={onClose}>
          {t('page.close')}
        </Button>,
      ]}
    >
      <div data-testid="share-text-preview">
        {text.isPending ? (
          <div className="nb-share-dialog__loading">
            <Spin />
          </div>
        ) : text.isError ? (
          <Alert type="error" showIcon title={failure} />
        ) : (
          <>
            {text.data.truncated ? (
              <Alert
                type="info"
                showIcon
                className="nb-share-text__note"
                title={t('page.truncated', { size: formatSize(TEXT_LIMIT) })}
              />
            ) : null}
            {text.data.contentText ? (
              <pre className="nb-share-text" data-testid="share-text-content">
                {text.data.contentText}
              </pre>
            ) : (
              <div className="nb-share-text__empty">{t('page.emptyFile')}</div>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
