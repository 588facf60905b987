import { useMemo } from 'react';
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
