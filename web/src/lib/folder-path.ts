import type { FileItem } from '@nimbus/contract';

/** Folder paths as the URL and the API carry them: always `/`, or `/a/b/` with both slashes. */
export function normalizeFolderPath(raw: string | null | undefined): string {
  const segments = (raw ?? '').split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}

/** `/a/b/` → `/a/`; the root stays `/`. */
export function parentFolderPath(path: string): string {
  const segments = normalizeFolderPath(path).split('/').filter(Boolean);
  segments.pop();
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}

/** The folder that holds a full item path: `/a/b.txt` → `/a/`. */
export function folderOfFullPath(fullPath: string): string {
  const segments = fullPath.split('/').filter(Boolean);
  segments.pop();
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}

/** The last segment of a full path: `/a/b.txt` → `b.txt`. */
export function nameOfFullPath(fullPath: string): string {
  return fullPath.split('/').filter(Boolean).pop() ?? '';
}

/** Each folder on the way down: `/a/b/` → ['/a/', '/a/b/']. */
export function folderAncestry(path: string): string[] {
  const segments = normalizeFolderPath(path).split('/').filter(Boolean);
  return segments.map((_, i) => `/${segments.slice(0, i + 1).join('/')}/`);
}

/** The name of a folder path's last segment, or '' for the root. */
export function folderName(path: string): string {
  return normalizeFolderPath(path).split('/').filter(Boolean).pop() ?? '';
}

/** A mount in a folder listing: it opens the mount browser and takes no file operation. */
export const isMount = (item: Pick<FileItem, 'mount'>): boolean => item.mount !== undefined;

/** The full path of an item: `/a/b/c.txt`. */
export const fullPathOf = (item: Pick<FileItem, 'path' | 'name'>): string =>
  `${item.path}${item.name}`;

/** The path of a folder's children: `/a/b/` for the folder `b` in `/a/`. */
export const childPathOf = (item: Pick<FileItem, 'path' | 'name'>): string =>
  `${item.path}${item.name}/`;
