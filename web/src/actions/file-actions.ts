import type { TFunction } from 'i18next';
import type { FileItem } from '@nimbus/contract';
import type { ClipboardItem } from '../stores/session';
import type { FileViewKind, SortOrder, SortProp } from '../lib/view-kinds';
import type { Action, ActionScope } from './types';

/**
 * The shapes of the file browser's actions. The files feature contributes its own, share, tags
 * and history theirs, in these terms; app/ assembles the registry (app/action-registry.ts) and
 * hands it down through FileActionsContext (actions/file-registry.ts).
 */

export type ViewMode = 'list' | 'grid';

/** New documents the server creates empty (POST /api/addfile). */
export type NewFileKind = 'text' | 'markdown' | 'mind' | 'word' | 'excel' | 'ppt';

export type ClipboardMode = 'copy' | 'cut';

/** An item on the in-app file clipboard (the FileClipboard tray, spec §3 "fileClipboard"). */
export interface ClipboardEntry extends ClipboardItem {
  mode: ClipboardMode;
}

/** What the screen around the items is. */
export interface ViewState {
  kind: FileViewKind;
  path: string;
  /** A folder of one's own tree: new items, paste and drops go here. */
  writable: boolean;
  vmode: ViewMode;
  sortProp: SortProp;
  order: SortOrder;
  /** Items the view holds (all pages). */
  total: number;
}

/** The work behind the actions; the file browser implements it. */
export interface FileCommands {
  open(item: FileItem): void;
  download(items: FileItem[]): void;
  setFavorite(items: FileItem[], favorite: boolean): void;
  toggleDetails(item: FileItem | null): void;
  toClipboard(items: FileItem[], mode: 'copy' | 'cut'): void;
  /** Copy or move the clipboard here; the clipboard's own mode unless told. */
  paste(mode?: 'copy' | 'move'): void;
  rename(item: FileItem): void;
  moveOrCopy(items: FileItem[]): void;
  duplicate(item: FileItem): void;
  extract(item: FileItem): void;
  /** Take a mount out of the folder it was placed in. */
  unmount(item: FileItem): void;
  trash(items: FileItem[]): void;
  restore(items: FileItem[]): void;
  deleteForever(items: FileItem[]): void;
  emptyTrash(): void;
  deselect(): void;
  selectAll(): void;
  refresh(): void;
  setViewMode(mode: ViewMode): void;
  setSort(prop: SortProp, order: SortOrder): void;
  newFolder(): void;
  newFile(kind: NewFileKind): void;
}

/** What the file browser's actions see; `can` tells whether the user's role holds an authority. */
export interface ActionContext extends ActionScope {
  /** The items acted on: the selection, or the item right-clicked (mounts included). */
  items: FileItem[];
  view: ViewState;
  clipboard: ClipboardEntry[];
  cmd: FileCommands;
}

export type FilesT = TFunction<'files'>;

/** An action of the file browser: the files feature's own, and those share and tags add. */
export type FileAction = Action<ActionContext, FilesT>;
