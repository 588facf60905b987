import { useTagDialog } from '../tag-dialog-store';
import { TagFilesDialog } from './TagFilesDialog';
import '../tags.css';

/** Renders the tag dialog wherever the signed-in layout is; see `openTagDialog`. */
export function TagDialogHost() {
  const targets = useTagDialog((s) => s.targets);
  const close = useTagDialog((s) => s.close);
  return <TagFilesDialog targets={targets} onClose={close} />;
}
