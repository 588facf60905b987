import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadItem } from '../types';
import { UploadRow } from './UploadRow';

export const ROW_HEIGHT = 64;

/** The upload list, virtualised: a folder of ten thousand files scrolls like ten. */
export function UploadList({
  items,
  className,
  style,
}: {
  items: UploadItem[];
  className?: string;
  style?: CSSProperties;
}) {
  const { t } = useTranslation('upload');
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => items[index]?.id ?? index,
  });
  return (
    <div
      ref={scroller}
      className={`nb-upload-list ${className ?? ''}`}
      style={style}
      data-testid="upload-list"
      role="list"
      aria-label={t('title')}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (!item) return null;
          return (
            <UploadRow
              key={item.id}
              item={item}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: ROW_HEIGHT,
                transform: `translateY(${row.start}px)`,
              }}
            />
          );
        })}
      </div>
    </div>
  );
}
