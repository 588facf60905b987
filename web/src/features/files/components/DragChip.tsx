import { DragOutlined, EnterOutlined } from '@ant-design/icons';
import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useDragStore } from '../../../components/file-browser/drag';
import { FileIcon } from '../../../components/FileIcon';

/** Follows the pointer while items are dragged: what moves, and where it would go. */
export function DragChip() {
  const { t } = useTranslation('files');
  const items = useDragStore((s) => s.items);
  const over = useDragStore((s) => s.over);
  const x = useDragStore((s) => s.x);
  const y = useDragStore((s) => s.y);
  const dragging = items.length > 0;

  useEffect(() => {
    if (!dragging) return;
    const move = (event: DragEvent) => {
      if (event.clientX || event.clientY)
        useDragStore.getState().moveTo(event.clientX, event.clientY);
    };
    document.addEventListener('dragover', move);
    return () => document.removeEventListener('dragover', move);
  }, [dragging]);

  const first = items[0];
  if (!dragging || !first) return null;
  return createPortal(
    <div
      className={`nb-drag-chip${over ? ' is-over' : ''}`}
      style={{ transform: `translate(${x + 14}px, ${y + 14}px)` }}
      data-testid="drag-chip"
      aria-hidden="true"
    >
      <FileIcon item={first} size={22} />
      <span className="nb-drag-chip__what">
        {items.length === 1 ? first.name : t('drag.items', { count: items.length })}
      </span>
      {over ? (
        <span className="nb-drag-chip__where">
          <EnterOutlined /> {t('drag.moveTo', { name: over.name })}
        </span>
      ) : (
        <DragOutlined className="nb-drag-chip__idle" />
      )}
    </div>,
    document.body,
  );
}
