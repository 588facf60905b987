import type { QueryClient } from '@tanstack/react-query';
import type { LiveMessage } from '../../api/events';
import { fileInfo } from './api';
import { fileKeys, keyOf } from './listing-cache';
import { flattenPages, type ListingData } from './listing';
import type { FileItem } from './types';

/** The folder (`/a/b/`) a full path (`/a/b/c.txt`, `/a/b/c/`) lies in. */
function parentOf(fullPath: string): string {
  const trimmed = fullPath.endsWith('/') ? fullPath.slice(0, -1) : fullPath;
  return trimmed.slice(0, trimmed.lastIndexOf('/') + 1) || '/';
}

/** The folders a batch of live messages changed the contents of. */
export function changedFolders(messages: readonly LiveMessage[]): Set<string> {
  const folders = new Set<string>();
  for (const message of messages) {
    const body = (message.body ?? {}) as Partial<FileItem> & { from?: string; to?: string };
    switch (message.url) {
      case 'createFile':
      case 'updateFile':
        if (typeof body.path === 'string') folders.add(body.path);
        break;
      case 'deleteFile':
        // the body is the path of the folder the item left
        if (typeof message.body === 'string') folders.add(message.body);
        break;
      case 'operationFile':
        for (const end of [body.from, body.to])
          if (typeof end === 'string') folders.add(parentOf(end));
        break;
    }
  }
  return folders;
}

/**
 * The folders held in cached listings whose size a change below them alters: for a listing of
 * `/a/`, a change in `/a/b/c/` alters the size of its folder `b`. A change in `/a/` itself
 * alters none of the sizes that listing shows.
 */
export function foldersToResize(
  queryClient: QueryClient,
  changed: ReadonlySet<string>,
): Map<string, FileItem> {
  const found = new Map<string, FileItem>();
  if (changed.size === 0) return found;
  for (const [queryKey, data] of queryClient.getQueriesData<ListingData>({
    queryKey: fileKeys.lists,
  })) {
    const key = keyOf(queryKey);
    if (!key || key.kind !== 'home' || !data) continue;
    const names = new Set<string>();
    for (const folder of changed) {
      if (folder.length <= key.path.length || !folder.startsWith(key.path)) continue;
      names.add(folder.slice(key.path.length).split('/')[0]!);
    }
    if (names.size === 0) continue;
    for (const item of flattenPages(data))
      if (item.isFolder && names.has(item.name)) found.set(item.id, item);
  }
  return found;
}

/** At most this many folders are asked again per batch (the ones a person sees are a few). */
const MAX_ASKED = 20;

/**
 * Asks the server again for the listed folders whose size changed below them and hands their
 * new rows to `apply` (as live updates): folder sizes on screen follow uploads, moves and
 * deletions made in their subfolders, from this tab or elsewhere.
 */
export async function refreshFolderSizes(
  queryClient: QueryClient,
  changed: ReadonlySet<string>,
  apply: (updates: LiveMessage[]) => void,
): Promise<void> {
  const folders = [...foldersToResize(queryClient, changed).values()].slice(0, MAX_ASKED);
  if (folders.length === 0) return;
  const rows = await Promise.all(folders.map((folder) => fileInfo(folder.id).catch(() => null)));
  const updates: LiveMessage[] = [];
  for (const [i, row] of rows.entries())
    if (row && row.size !== folders[i]!.size) updates.push({ url: 'updateFile', body: row });
  if (updates.length > 0) apply(updates);
}
