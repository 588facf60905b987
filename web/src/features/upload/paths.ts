/** Path helpers of folder uploads. Relative paths use `/` and never start with one. */

export function cleanRelativePath(path: string, fallbackName: string): string {
  const parts = path.split('/').filter((part) => part && part !== '.');
  return parts.length ? parts.join('/') : fallbackName;
}

/** The names checkExist asks about: the first segment of each path (spec §5, API notes §1.4). */
export function topLevelNames(relativePaths: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const path of relativePaths) {
    const first = path.split('/').find(Boolean);
    if (first) names.add(first);
  }
  return [...names];
}

export interface FolderToCreate {
  /** Parent path inside the upload (`a/b`), empty for a top-level folder. */
  folderPath: string;
  filename: string;
}

/**
 * Every folder a folder upload needs, parents before children: the folders of the files' paths
 * and the empty folders a drop may carry.
 */
export function foldersToCreate(
  relativePaths: Iterable<string>,
  emptyFolders: Iterable<string> = [],
): FolderToCreate[] {
  const seen = new Set<string>();
  const add = (segments: string[]) => {
    for (let depth = 1; depth <= segments.length; depth++) {
      seen.add(segments.slice(0, depth).join('/'));
    }
  };
  for (const path of relativePaths) add(path.split('/').filter(Boolean).slice(0, -1));
  for (const path of emptyFolders) add(path.split('/').filter(Boolean));
  return [...seen]
    .map((path) => path.split('/'))
    .sort((a, b) => a.length - b.length || a.join('/').localeCompare(b.join('/')))
    .map((segments) => ({
      folderPath: segments.slice(0, -1).join('/'),
      filename: segments[segments.length - 1] ?? '',
    }));
}

/** The same file chosen again after a reload: browsers give back name, size and date only. */
export function isSameFile(
  a: { name: string; size: number; lastModified: number },
  b: { name: string; size: number; lastModified: number },
): boolean {
  return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;
}

/** The parent folders of a relative path, for display: `a/b/c.txt` → `a/b`. */
export function parentOf(relativePath: string): string {
  const index = relativePath.lastIndexOf('/');
  return index < 0 ? '' : relativePath.slice(0, index);
}
