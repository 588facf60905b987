import { DownloadOutlined } from '@ant-design/icons';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Alert, Button, Modal, Spin, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../../lib/format';
import { useAppStore } from '../../../stores/app';
import { startDownload } from '../../../api/bytes';
import { FileIcon } from '../../../components/FileIcon';
import { highlightLines, languageOf } from '../../../lib/highlight';
import type { ViewerProps } from '../../../actions/viewers';
import { TEXT_VIEW_MAX_BYTES, useTextStream } from '../use-text-stream';
import { NoPreviewDialog } from './NoPreviewDialog';

/** Texts up to this size are highlighted (once they have arrived whole). */
const HIGHLIGHT_MAX_CHARS = 512 * 1024;
const LINE_HEIGHT = 20;

/**
 * A read-only look at a text: its lines as they stream in (a 100 MB log shows its first screen
 * at once), line numbers, and the colours of its language for source code.
 */
export default function TextViewer(props: ViewerProps) {
  const { item, source, onClose } = props;
  const { t } = useTranslation('preview');
  const mobile = useAppStore((s) => s.device === 'mobile');
  const text = useTextStream(source, item);
  const html = useHighlighted(text.done ? text.lines : null, item.name, item.suffix);
  // the dialog mounts its body after the first render: kept as state, the element's arrival
  // renders again and the virtualizer starts observing it (a ref alone left a short text,
  // fully read before the body existed, with no lines drawn)
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const rows = useVirtualizer({
    count: text.count,
    getScrollElement: () => scroller,
    estimateSize: () => LINE_HEIGHT,
    overscan: 20,
    // until the first measure, a screenful: the first lines show at once
    initialRect: { width: 1000, height: 600 },
  });
  const downloadUrl = source.downloadUrl(item);
  const download = downloadUrl ? () => startDownload(downloadUrl, item.name) : null;

  if (text.binary) return <NoPreviewDialog item={item} source={source} onClose={onClose} />;
  const digits = String(Math.max(text.count, 1)).length;
  return (
    <Modal
      open
      onCancel={onClose}
      width={mobile ? '100%' : 1040}
      centered={!mobile}
      destroyOnHidden
      className="nb-text-preview"
      title={
        <span className="nb-dialog-title">
          <FileIcon item={item} size={22} />
          <span className="nb-text-preview__name">{item.name}</span>
          <span className="nb-text-preview__size">{formatSize(item.size)}</span>
          {text.decoder ? (
            <Tag className="nb-text-preview__decoder" data-testid="text-preview-decoder">
              {text.decoder}
            </Tag>
          ) : null}
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
        {text.failed ? (
          <Alert type="error" showIcon title={t('loadFailed')} />
        ) : text.count === 0 ? (
          <div className="nb-text-preview__loading">
            <Spin />
          </div>
        ) : (
          <>
            {text.truncated ? (
              <Alert
                type="info"
                showIcon
                className="nb-text-preview__note"
                data-testid="text-preview-truncated"
                title={t('text.truncated', { size: formatSize(TEXT_VIEW_MAX_BYTES) })}
                action={
                  download ? (
                    <Button size="small" onClick={download}>
                      {t('download')}
                    </Button>
                  ) : null
                }
              />
            ) : null}
            {text.done && text.count === 1 && text.lines[0] === '' ? (
              <div className="nb-text-preview__empty">{t('text.empty')}</div>
            ) : (
              <div
                ref={setScroller}
                className="nb-code nb-code--lines"
                role="document"
                aria-label={item.name}
                data-testid="text-preview-content"
                data-lines={text.count}
                data-highlighted={html ? 'true' : undefined}
                style={{
                  ['--nb-gutter' as string]: `${digits + 1}ch`,
                  // a short text takes the room of its lines, a long one scrolls
                  height: text.count * LINE_HEIGHT + 18,
                }}
              >
                <div className="nb-code__rows" style={{ height: rows.getTotalSize() }}>
                  {rows.getVirtualItems().map((row) => {
                    const marked = html?.[row.index];
                    return (
                      <div
                        key={row.index}
                        className="nb-code__row"
                        style={{ transform: `translateY(${row.start}px)` }}
                      >
                        <span className="nb-code__no" aria-hidden="true">
                          {row.index + 1}
                        </span>
                        {marked !== undefined ? (
                          <span
                            className="nb-code__line hljs"
                            // highlight.js escapes the text; only its own spans are markup
                            dangerouslySetInnerHTML={{ __html: marked }}
                          />
                        ) : (
                          <span className="nb-code__line">{text.lines[row.index]}</span>
                        )}
                      </div>
                    );
                  })}
                </div>
              </div>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}

/** The lines highlighted in the file's language, once they are all in and not too many. */
function useHighlighted(
  lines: readonly string[] | null,
  name: string,
  suffix: string,
): string[] | null {
  const [html, setHtml] = useState<string[] | null>(null);
  const language = languageOf(name, suffix);
  useEffect(() => {
    if (!lines || !language) return;
    const text = lines.join('\n');
    if (text.length > HIGHLIGHT_MAX_CHARS) return;
    let current = true;
    highlightLines(text, language).then(
      (marked) => current && setHtml(marked),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [lines, language]);
  return html;
}
