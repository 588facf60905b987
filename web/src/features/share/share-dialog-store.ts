import { create } from 'zustand';
import type { ShareTarget } from './components/ShareDialog';

interface ShareDialogState {
  target: ShareTarget | null;
  open: (target: ShareTarget) => void;
  close: () => void;
}

/** The one share dialog of the signed-in app; any feature opens it with `openShareDialog`. */
export const useShareDialog = create<ShareDialogState>()((set) => ({
  target: null,
  open: (target) => set({ target }),
  close: () => set({ target: null }),
}));

export function openShareDialog(target: ShareTarget): void {
  useShareDialog.getState().open(target);
}
