import { create } from 'zustand';

/** The folder the file browser shows: where uploads and new items go. */
export interface CurrentFolder {
  /** Path of the folder, `/` for the root, else `/a/b/`. */
  path: string;
  /** Id of the folder; empty for the root. */
  folderId: string;
  /** False in views that are not a folder of the user's own (trash, recent, type views…). */
  writable: boolean;
}

const useCurrentFolderStore = create<CurrentFolder>()(() => ({
  path: '/',
  folderId: '',
  writable: true,
}));

/** The file browser calls this whenever the folder it shows changes. */
export function setCurrentFolder(folder: CurrentFolder): void {
  useCurrentFolderStore.setState(folder, true);
}

export function useCurrentFolder(): CurrentFolder {
  return useCurrentFolderStore();
}
