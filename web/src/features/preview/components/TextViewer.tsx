import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Spin } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../stores/app';
import { formatSize } from '../../../lib/format';
import { startDownload } from '../../files/api';
import { FileIcon } from '../../files/components/FileIcon';
import type { ViewerProps } from '../registry';
import { fetchTextHead, TEXT_PREVIEW_MAX_BYTES } from '../text-head';

/** A read-only look at a text file: plain text, markdown source, code. */
export default function TextViewer({ item, source, onClose }: ViewerProps) {
  const { t } = useTranslation('preview');
  const mobile = useAppStore((s) => s.device === 'mobile');
  const text = useQuery({
    queryKey: ['preview', 'text', source.kind, item.id, item.updateDate],
    queryFn: ({ signal }) => fetchTextHead(source, item, TEXT_PREVIEW_MAX_BYTES, signal),
    staleTime: 30_000,
    retry: false,
  });
  const downloadUrl = source.downloadUrl(item);
  const download = downloadUrl ? () => startDownload(downloadUrl, item.name) : null;

  // one text node of line numbers: cheap for the 30,000 lines of a 2 MB log
  const gutter = useMemo(() => {
    if (!text.data) return '';
    let count = 1;
    for (const ch of text.data.text) if (ch === '\n') count += 1;
    return Array.from({ length: count }, (_, i) => i + 1).join('\n');
  }, [text.data]);
  return (
    <Modal
      open
      onCancel={onClose}
      width={mobile ? '100%' : 960}
      centered={!mobile}
      destroyOnHidden
      className="nb-text-preview"
      title={
        <span className="nb-dialog-title">
          <FileIcon item={item} size={22} />
          <span className="nb-text-preview__name">{item.name}</span>
          <span className="nb-text-preview__size">{formatSize(item.size)}</span>
        </span>
      }
      footer={[
        download ? (
          <Button
            key="download"
            icon={<DownloadOutlined />}
            onClick={download}
            data-testid="text-preview-download"
          >
            {t('download')}
          </Button>
        ) : null,
        <Button key="close" type="primary" onClick={onClose}>
          {t('close')}
        </Button>,
      ]}
    >
      <div data-testid="text-preview">
        {text.isPending ? (
          <div className="nb-text-preview__loading">
            <Spin />
          </div>
        ) : text.isError ? (
          <Alert type="error" showIcon title={t('loadFailed')} />
        ) : (
          <>
            {text.data.truncated ? (
              <Alert
                type="info"
                showIcon
                className="nb-text-preview__note"
                data-testid="text-preview-truncated"
                title={t('text.truncated', { size: formatSize(TEXT_PREVIEW_MAX_BYTES) })}
                action={
                  download ? (
                    <Button size="small" onClick={download}>
                      {t('download')}
                    </Button>
                  ) : null
                }
              />
            ) : null}
            {text.data.text.length === 0 ? (
              <div className="nb-text-preview__empty">{t('text.empty')}</div>
            ) : (
              <div className="nb-code" role="document" aria-label={item.name}>
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
