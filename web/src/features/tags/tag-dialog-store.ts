import { create } from 'zustand';

/** What the tag dialog is about. */
export interface TagTarget {
  id: string;
  name: string;
}

interface TagDialogState {
  targets: TagTarget[];
  open: (targets: TagTarget[]) => void;
  close: () => void;
}

/** The one tag dialog of the signed-in app; any feature opens it with `openTagDialog`. */
export const useTagDialog = create<TagDialogState>()((set) => ({
  targets: [],
  open: (targets) => set({ targets }),
  close: () => set({ targets: [] }),
}));

export function openTagDialog(targets: TagTarget[]): void {
  useTagDialog.getState().open(targets);
}
