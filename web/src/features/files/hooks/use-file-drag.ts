import type { DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isAuthorized } from '../../../actions/registry';
import { ACTIONS } from '../../../app/action-registry';
import type { ActionContext } from '../actions';
import { DRAG_TYPE, blankDragImage, canDropInto, useDragStore, type DropTarget } from '../drag';
import type { FileItem } from '../types';
import type { MoveLike } from './use-transfer';
import type { FileDialogs } from './use-file-dialogs';
import type { FileSelection } from './use-file-selection';

interface DragInput {
  ctx: ActionContext;
  selection: FileSelection;
  confirm: FileDialogs['confirm'];
  transfer: (moving: MoveLike[], target: DropTarget, mode: 'move') => Promise<boolean>;
}

/**
 * Dragging items onto a folder (in the listing or the breadcrumb) moves them after a confirm:
 * the registry's "move to", so only a role that may edit files drags them.
 */
export function useFileDrag({ ctx, selection: sel, confirm, transfer }: DragInput) {
  const { t } = useTranslation('files');
  const dragItems = useDragStore((s) => s.items);
  const isTrash = ctx.view.kind === 'trash';
  const allowed = !isTrash && isAuthorized(ACTIONS.moveTo, ctx);

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
    const first = moving[0]!;
    void confirm({
      title: t('confirm.moveTitle'),
      content:
        moving.length === 1
          ? t('confirm.moveOne', { name: first.name, target: target.name })
          : t('confirm.moveMany', { count: moving.length, target: target.name }),
      okText: t('confirm.moveOk'),
    }).then((ok) => {
      if (ok) void transfer(moving, target, 'move').then((done) => done && sel.clear());
    });
  };

  return { draggable: allowed, onDragStart, canDropOn, onDropOn };
}
