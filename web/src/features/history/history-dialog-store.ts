import { create } from 'zustand';

/** The file whose versions the History dialog shows. */
export interface HistoryTarget {
  id: string;
  name: string;
  suffix: string;
}

interface HistoryDialogState {
  target: HistoryTarget | null;
  open: (target: HistoryTarget) => void;
  close: () => void;
}

/** The one History dialog of the signed-in app; any feature opens it with `openHistoryDialog`. */
export const useHistoryDialog = create<HistoryDialogState>()((set) => ({
  target: null,
  open: (target) => set({ target }),
  close: () => set({ target: null }),
}));

export function openHistoryDialog(target: HistoryTarget): void {
  useHistoryDialog.getState().open(target);
}
