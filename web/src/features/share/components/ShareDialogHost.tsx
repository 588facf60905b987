import { useShareDialog } from '../share-dialog-store';
import { ShareDialog } from './ShareDialog';

/** Renders the share dialog wherever the signed-in layout is; see `openShareDialog`. */
export function ShareDialogHost() {
  const target = useShareDialog((s) => s.target);
  const close = useShareDialog((s) => s.close);
  return <ShareDialog target={target} onClose={close} />;
}
