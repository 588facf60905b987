import { create } from 'zustand';
import type { CurrentFolder } from '../../stores/current-folder';
import type { UploadItem } from './types';

/** What the uploader shows: the list (published by the engine) and how the panel is shown. */
interface UploadState {
  items: UploadItem[];
  panelOpen: boolean;
  /** The panel folded to its one-line bar: title, counts, speed, time left, progress. */
  panelCollapsed: boolean;
  /** The pointer is over the panel: it does not fold away under the reader. */
  panelHovered: boolean;
  /** A drag with files is over the page. */
  dragging: boolean;
  /** The last folder the user had open and may write to: where the transfer page uploads. */
  lastFolder: CurrentFolder | null;
  setPanelOpen: (open: boolean) => void;
  setPanelCollapsed: (collapsed: boolean) => void;
  setDragging: (dragging: boolean) => void;
}

export const useUploadStore = create<UploadState>()((set) => ({
  items: [],
  panelOpen: false,
  panelCollapsed: false,
  panelHovered: false,
  dragging: false,
  lastFolder: null,
  setPanelOpen: (panelOpen) => set(panelOpen ? { panelOpen } : { panelOpen, panelHovered: false }),
  setPanelCollapsed: (panelCollapsed) => set({ panelCollapsed }),
  setDragging: (dragging) => set({ dragging }),
}));
