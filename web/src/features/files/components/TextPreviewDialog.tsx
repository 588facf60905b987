import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Spin } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../../lib/format';
import { fetchTextHead } from '../api';
import type { FileItem } from '../types';
import { FileIcon } from './FileIcon';

/** Text previews stop after 2 MB; the rest is a download away. */
export const TEXT_PREVIEW_MAX_BYTES = 2 * 1024 * 1024;

interface TextPreviewProps {
  item: FileItem | null;
  onClose: () => void;
  onDownload: (item: FileItem) => void;
  mobile: boolean;
}

/** A read-only look at a text file: plain text, markdown source, code. */
export function TextPreviewDialog({ item, onClose, onDownload, mobile }: TextPreviewProps) {
  const { t } = useTranslation('files');
  const text = useQuery({
    queryKey: ['files', 'text', item?.id, item?.updateDate],
    queryFn: ({ signal }) => fetchTextHead(item!, TEXT_PREVIEW_MAX_BYTES, signal),
    enabled: Boolean(item),
    staleTime: 30_000,
    retry: false,
  });

  // one text node of line numbers: cheap for the 30,000 lines of a 2 MB log
  const gutter = useMemo(() => {
    if (!text.data) return '';
    let count = 1;
    for (const ch of text.data.text) if (ch === '\n') count += 1;
    return Array.from({ length: count }, (_, i) => i + 1).join('\n');
  }, [text.data]);
  return (
    <Modal
      open={Boolean(item)}
      onCancel={onClose}
      width={mobile ? '100%' : 960}
      centered={!mobile}
      destroyOnHidden
      className="nb-text-preview"
      title={
        item ? (
          <span className="nb-dialog-title">
            <FileIcon item={item} size={22} />
            <span className="nb-text-preview__name">{item.name}</span>
            <span className="nb-text-preview__size">{formatSize(item.size)}</span>
          </span>
        ) : null
      }
      footer={[
        <Button
          key="download"
          icon={<DownloadOutlined />}
          onClick={() => item && onDownload(item)}
          data-testid="text-preview-download"
        >
          {t('preview.download')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          {t('preview.close')}
        </Button>,
      ]}
    >
      <div data-testid="text-preview">
        {text.isPending ? (
          <div className="nb-text-preview__loading">
            <Spin />
          </div>
        ) : text.isError ? (
          <Alert type="error" showIcon title={t('preview.loadFailed')} />
        ) : (
          <>
            {text.data.truncated ? (
              <Alert
                type="info"
                showIcon
                className="nb-text-preview__note"
                data-testid="text-preview-truncated"
                title={t('preview.truncated', { size: formatSize(TEXT_PREVIEW_MAX_BYTES) })}
                action={
                  <Button size="small" onClick={() => item && onDownload(item)}>
                    {t('preview.download')}
                  </Button>
                }
              />
            ) : null}
            {text.data.text.length === 0 ? (
              <div className="nb-text-preview__empty">{t('preview.emptyFile')}</div>
            ) : (
              <div className="nb-code" role="document" aria-label={item?.name}>
                <pre className="nb-code__gutter" aria-hidden="true">
                  {gutter}
                </pre>
                <pre className="nb-code__text" data-testid="text-preview-content">
                  {text.data.text}
                </pre>
              </div>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
