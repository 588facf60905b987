import type { ClipboardEntry, ClipboardMode } from '../../actions/file-actions';
import { useSessionStore } from '../../stores/session';
import type { FileItem } from './types';

export type { ClipboardEntry, ClipboardMode } from '../../actions/file-actions';

/** The entries, persisted with the session under `store`. */
export function useFileClipboard(): ClipboardEntry[] {
  return useSessionStore((s) => s.fileClipboard) as ClipboardEntry[];
}

export function clipboardMode(entries: readonly ClipboardEntry[]): ClipboardMode {
  return entries[0]?.mode === 'cut' ? 'cut' : 'copy';
}

export function putOnClipboard(items: readonly FileItem[], mode: ClipboardMode): void {
  const entries: ClipboardEntry[] = items.map((item) => ({
    id: item.id,
    name: item.name,
    path: item.path,
    isFolder: item.isFolder,
    mode,
  }));
  useSessionStore.getState().setFileClipboard(entries);
}

export function removeFromClipboard(ids: readonly string[]): void {
  const drop = new Set(ids);
  const { fileClipboard, setFileClipboard } = useSessionStore.getState();
  setFileClipboard(fileClipboard.filter((entry) => !drop.has(entry.id)));
}

export function clearClipboard(): void {
  useSessionStore.getState().setFileClipboard([]);
}
