import { useMemo } from 'react';
import { useCurrentFolder } from '../../stores/current-folder';
import { summarize, type UploadSummary } from './progress';
import { useUploadStore } from './store';
import type { UploadItem } from './types';

export function useUploadItems(): UploadItem[] {
  return useUploadStore((s) => s.items);
}

export function useUploadSummary(): UploadSummary {
  const items = useUploadItems();
  return useMemo(() => summarize(items), [items]);
}

/** A folder path for people: the root is "All files". */
export function displayFolder(path: string, root: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed ? trimmed : root;
}

/**
 * Where the chooser buttons of the panel and the transfer page upload: the folder on screen,
 * else the last folder the user had open (pages like the transfer page show none). `target`
 * is undefined when it is the folder on screen, or when there is none yet to fall back on (the
 * upload then waits for one, spec §5).
 */
export function useUploadTarget(): { target: string | undefined; path: string | undefined } {
  const current = useCurrentFolder();
  const last = useUploadStore((s) => s.lastFolder);
  if (current.writable) return { target: undefined, path: current.path };
  return { target: last?.path, path: last?.path };
}
