import type { FileItem } from './types';

/** A plain text file of one byte in the root folder, for tests; `extra` overrides any field. */
export function makeFileItem(name: string, extra: Partial<FileItem> = {}): FileItem {
  return {
    id: `id-${name}`,
    name,
    path: '/',
    isFolder: false,
    size: 1,
    contentType: 'text/plain',
    suffix: 'txt',
    type: 'text',
    uploadDate: '2025-01-01 10:00:00',
    updateDate: '2025-01-01 10:00:00',
    isFavorite: false,
    childrenCount: 0,
    hash: null,
    userId: 'u1',
    agoTime: 0,
    ...extra,
  };
}
