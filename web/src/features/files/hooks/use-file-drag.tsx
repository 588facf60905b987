import { App, Button } from 'antd';
import type { DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isAuthorized } from '../../../actions/registry';
import { quietOperation } from '../../../api/events';
import { FILE_ACTIONS, type ActionContext } from '../actions';
import {
  DRAG_TYPE,
  blankDragImage,
  canDropInto,
  useDragStore,
  type DropTarget,
} from '../../../components/file-browser/drag';
import { folderName } from '../../../lib/folder-path';
import type { FileItem } from '../types';
import type { MoveLike } from './use-transfer';
import type { FileSelection } from './use-file-selection';

interface DragInput {
  ctx: ActionContext;
  selection: FileSelection;
  transfer: (moving: MoveLike[], target: DropTarget, mode: 'move') => Promise<boolean>;
}

/**
 * Dragging items onto a folder (in the listing or the breadcrumb) moves them at once, with an
 * Undo in the message; only a name already taken there asks first (the transfer's question).
 * It is the registry's "move to", so only a role that may edit files drags them.
 */
export function useFileDrag({ ctx, selection: sel, transfer }: DragInput) {
  const { t } = useTranslation('files');
  const { message } = App.useApp();
  const dragItems = useDragStore((s) => s.items);
  const isTrash = ctx.view.kind === 'trash';
  const allowed = !isTrash && isAuthorized(FILE_ACTIONS.moveTo, ctx);

  const onDragStart = (item: FileItem, event: DragEvent) => {
    let dragged = sel.selectedItems;
    if (!sel.selection.ids.has(item.id)) {
      sel.selectOnly(item);
      dragged = [item];
    }
    // mounts stay where they were placed
    dragged = dragged.filter((i) => !i.mount);
    if (dragged.length === 0) {
      event.preventDefault();
      return;
    }
    event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(dragged.map((i) => i.id)));
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setDragImage(blankDragImage(), 0, 0);
    const store = useDragStore.getState();
    store.start(dragged);
    store.moveTo(event.clientX, event.clientY);
    const end = () => {
      useDragStore.getState().end();
      window.removeEventListener('dragend', end, true);
      window.removeEventListener('drop', end, true);
    };
    window.addEventListener('dragend', end, true);
    window.addEventListener('drop', () => window.setTimeout(end, 0), {
      capture: true,
      once: true,
    });
  };

  const canDropOn = (target: DropTarget) => allowed && canDropInto(dragItems, target);

  const onDropOn = (target: DropTarget) => {
    const moving = useDragStore.getState().items;
    useDragStore.getState().end();
    if (!allowed || !canDropInto(moving, target)) return;
    quietOperation('move');
    void transfer(moving, target, 'move').then((done) => {
      if (!done) return;
      sel.clear();
      const key = `move-${Date.now()}`;
      // Undo puts each item back in the folder it came from
      const undo = async () => {
        message.destroy(key);
        quietOperation('move');
        const from = new Map<string, MoveLike[]>();
        for (const item of moving) {
          const back = { ...item, path: target.path };
          from.set(item.path, [...(from.get(item.path) ?? []), back]);
        }
        for (const [path, items] of from) {
          await transfer(
            items,
            { id: `path:${path}`, path, name: folderName(path) || t('allFiles') },
            'move',
          );
        }
      };
      void message.success({
        key,
        duration: 6,
        content: (
          <span className="nb-undo" data-testid="move-message">
            {t('messages.moved', {
              count: moving.length,
              name: moving[0]!.name,
              target: target.name,
            })}
            <Button type="link" size="small" data-testid="move-undo" onClick={() => void undo()}>
              {t('messages.undo')}
            </Button>
          </span>
        ),
      });
    });
  };

  return { draggable: allowed, onDragStart, canDropOn, onDropOn };
}
