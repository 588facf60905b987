import type { FileItem } from '../types';
import type { FileDialogs as Dialogs } from '../hooks/use-file-dialogs';
import type { MoveLike } from '../hooks/use-transfer';
import type { DropTarget } from '../../../components/file-browser/drag';
import { ContextMenu } from './ActionMenu';
import { DetailsDrawer } from './DetailsDrawer';
import { DragChip } from './DragChip';
import { MoveCopyDialog } from './MoveCopyDialog';
import { NameDialog } from '../../../components/file-browser/NameDialog';

interface FileDialogsProps {
  dialogs: Dialogs;
  /** The selection, shown by the details drawer. */
  selectedItems: FileItem[];
  mobile: boolean;
  transfer: (moving: MoveLike[], target: DropTarget, mode: 'move' | 'copy') => Promise<boolean>;
  /** After a move or copy from the dialog: nothing stays selected. */
  onTransferred: () => void;
  locationLink: (folder: string, name?: string) => string;
}

/** Everything the file browser opens over its listing. */
export function FileDialogs({
  dialogs,
  selectedItems,
  mobile,
  transfer,
  onTransferred,
  locationLink,
}: FileDialogsProps) {
  const { menu, detailsOpen } = dialogs;
  const detailsItems = detailsOpen ? selectedItems : [];
  return (
    <>
      <ContextMenu
        key={menu ? `${menu.x}:${menu.y}` : 'none'}
        request={menu}
        onClose={() => dialogs.setMenu(null)}
      />
      <NameDialog request={dialogs.nameDialog} onClose={() => dialogs.setNameDialog(null)} />
      <MoveCopyDialog
        request={dialogs.moveRequest}
        onClose={() => dialogs.setMoveRequest(null)}
        onSubmit={(moving, target, mode) =>
          transfer(moving, target, mode).then((done) => {
            if (done) onTransferred();
            return done;
          })
        }
      />
      <DetailsDrawer
        open={detailsOpen && detailsItems.length > 0}
        items={detailsItems}
        mobile={mobile}
        onClose={() => dialogs.setDetailsOpen(false)}
        locationLink={locationLink}
      />
      {dialogs.preview.element}
      <DragChip />
    </>
  );
}
