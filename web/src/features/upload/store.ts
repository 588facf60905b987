import { create } from 'zustand';
import type { CurrentFolder } from '../files/current-folder';
import type { UploadItem } from './types';

/** What the uploader shows: the list (published by the engine) and whether the panel is open. */
interface UploadState {
  items: UploadItem[];
  panelOpen: boolean;
  /** A drag with files is over the page. */
  dragging: boolean;
  /** The last folder the user had open and may write to: where the transfer page uploads. */
  lastFolder: CurrentFolder | null;
  setPanelOpen: (open: boolean) => void;
  setDragging: (dragging: boolean) => void;
}

export const useUploadStore = create<UploadState>()((set) => ({
  items: [],
  panelOpen: false,
  dragging: false,
  lastFolder: null,
  setPanelOpen: (panelOpen) => set({ panelOpen }),
  setDragging: (dragging) => set({ dragging }),
}));
