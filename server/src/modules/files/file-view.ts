import type { FileItem, FileOperation, OperationResult } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import { formatDateTime } from '../../lib/time.ts';
import { musicOf } from '../media/media-facts.ts';
import { contentTypeOf } from './file-types.ts';
import type { FileRow } from './files.repo.ts';
import type { MountEntry } from './folder-listing.repo.ts';

/** A file or folder as the API shows it: the contract's `fileItem`. */
export type FileView = FileItem;

/** Milliseconds since `date` (never below zero: a clock set back makes nothing "in the future"). */
const agoTime = (date: number) => Math.max(0, Date.now() - date);

export function toView(row: FileRow): FileView {
  const view: FileView = {
    id: row.id,
    name: row.name,
    path: row.path,
    isFolder: row.isFolder === 1,
    size: row.size,
    contentType: row.contentType,
    suffix: row.suffix,
    type: row.fileType,
    hash: row.hash,
    uploadDate: formatDateTime(row.uploadDate),
    updateDate: formatDateTime(row.updateDate),
    isFavorite: row.isFavorite === 1,
    childrenCount: row.childrenCount,
    userId: row.userId,
    agoTime: agoTime(row.updateDate),
  };
  if (row.trashedAt) view.trashDate = formatDateTime(row.trashedAt);
  if (row.fileType === 'audio') {
    const music = musicOf(row);
    // only a song with a cover names one: the original client asks for the cover by the name
    if (music?.hasCover)
      view.music = { ...music, name: music.songName || row.name.replace(/\.[^.]*$/, '') };
  }
  return view;
}

/** A mount as an entry of the folder it sits in (`prefix`: that folder's child path). */
export function mountView(owner: { id: string }, mount: MountEntry, prefix: string): FileView {
  return {
    id: mount.mountId,
    name: mount.name,
    path: prefix,
    isFolder: true,
    // it takes no space in this drive
    size: 0,
    contentType: contentTypeOf('', true),
    suffix: '',
    type: 'folder',
    hash: null,
    uploadDate: formatDateTime(mount.createdAt),
    updateDate: formatDateTime(mount.updateDate),
    isFavorite: false,
    childrenCount: mount.childrenCount,
    userId: owner.id,
    agoTime: agoTime(mount.updateDate),
    mount: {
      mountId: mount.mountId,
      shareId: mount.shareId,
      fileId: mount.fileId,
      fileUsername: mount.ownerUsername,
      fileShowName: mount.ownerShowName,
    },
  };
}

/** `/a/b.txt` for the row `b.txt` under `/a/`. */
export const fullPathOf = (row: Pick<FileRow, 'path' | 'name'>) => `${row.path}${row.name}`;

/** An item's operation refused by a rule: its result says why; any other error goes on up. */
export function failureOf(
  operation: FileOperation,
  row: FileRow,
  to: string,
  err: unknown,
): OperationResult {
  if (!(err instanceof AppError)) throw err;
  return { operation, from: fullPathOf(row), to, code: -1, msg: err.message };
}
