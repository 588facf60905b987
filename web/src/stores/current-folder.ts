import { create } from 'zustand';
import { useShallow } from 'zustand/react/shallow';

/** The folder the file browser shows: where uploads and new items go. */
export interface CurrentFolder {
  /** Path of the folder, `/` for the root, else `/a/b/`. */
  path: string;
  /** Id of the folder: '0' for the root (as the server names it), '' while it is looked up. */
  folderId: string;
  /** False in views that are not a folder of the user's own (trash, recent, type views…). */
  writable: boolean;
}

interface CurrentFolderState extends CurrentFolder {
  /** Reloads the listing on screen; the file browser installs it. */
  refresh: () => void;
}

const useCurrentFolderStore = create<CurrentFolderState>()(() => ({
  path: '/',
  folderId: '0',
  writable: false,
  refresh: () => {},
}));

/** The file browser calls this whenever the folder it shows changes. */
export function setCurrentFolder(folder: CurrentFolder): void {
  useCurrentFolderStore.setState({
    path: folder.path,
    folderId: folder.folderId,
    writable: folder.writable,
  });
}

/** The file browser installs how its listing reloads (null when it leaves the screen). */
export function setCurrentFolderRefresh(refresh: (() => void) | null): void {
  useCurrentFolderStore.setState({ refresh: refresh ?? (() => {}) });
}

/** `{ path, folderId, writable }` of the folder on screen. */
export function useCurrentFolder(): CurrentFolder {
  return useCurrentFolderStore(
    useShallow((s) => ({ path: s.path, folderId: s.folderId, writable: s.writable })),
  );
}

/** The folder on screen, outside React. */
export function currentFolder(): CurrentFolder {
  const { path, folderId, writable } = useCurrentFolderStore.getState();
  return { path, folderId, writable };
}

/**
 * Reloads the folder on screen (e.g. once uploads into it finished). Cheaper than invalidating
 * every `['files']` query: a long folder refetches only when it is small enough to do so.
 */
export function refreshCurrentFolder(): void {
  useCurrentFolderStore.getState().refresh();
}
