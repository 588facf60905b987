import { useHistoryDialog } from '../history-dialog-store';
import { HistoryDialog } from './HistoryDialog';
import '../history.css';

/** Renders the History dialog wherever the signed-in layout is; see `openHistoryDialog`. */
export function HistoryDialogHost() {
  const target = useHistoryDialog((s) => s.target);
  const close = useHistoryDialog((s) => s.close);
  return target ? <HistoryDialog key={target.id} target={target} onClose={close} /> : null;
}
