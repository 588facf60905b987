/**
 * Upload file status (spec §4): waiting, md5 check (`checking`: the SHA-256 identifier is being
 * computed), uploading, paused, merging, success, failure.
 */
export type UploadStatus =
  'waiting' | 'checking' | 'uploading' | 'paused' | 'merging' | 'success' | 'failure';

/** One file of the upload list. The File itself lives in the engine, never in the store. */
export interface UploadItem {
  id: string;
  batchId: string;
  name: string;
  size: number;
  lastModified: number;
  /** `name` for a single file, `folder/sub/name` inside a folder upload. */
  relativePath: string;
  /** The folder the upload goes to (spec §3 upload parameter currentDirectory). */
  currentDirectory: string;
  /** Hex SHA-256 of the content, once computed. */
  identifier?: string;
  /** The chunk size the upload started with; kept so a resume speaks to the same session. */
  chunkSize?: number;
  status: UploadStatus;
  /** 0..1 of the checksum pass. */
  checkProgress: number;
  /** 0..100 of a large file's merge, which the server runs as a background task. */
  mergeProgress?: number;
  /** Bytes the server has (or that are on the wire). */
  uploaded: number;
  /** Bytes per second, smoothed. */
  speed: number;
  /** The server's text, or ours, when status is failure. */
  error?: string;
  /** Failed because the connection dropped: retried by itself when the browser is online again. */
  offline?: boolean;
  /** Restored after a reload: the user must choose the file again (browsers forget files). */
  needsFile: boolean;
  /** Sent nothing: the server already had these bytes (instant upload). */
  instant?: boolean;
  addedAt: number;
}

/** What the queue remembers across reloads (spec: resume after a browser reload). */
export type SavedUpload = Pick<
  UploadItem,
  | 'id'
  | 'batchId'
  | 'name'
  | 'size'
  | 'lastModified'
  | 'relativePath'
  | 'currentDirectory'
  | 'identifier'
  | 'chunkSize'
  | 'addedAt'
> & { username: string };

/** A file picked or dropped, with its path inside the picked folder. */
export interface PickedFile {
  file: File;
  relativePath: string;
}

export const ACTIVE_STATUSES: readonly UploadStatus[] = ['checking', 'uploading', 'merging'];
/** Statuses that still have work to do: leaving the page would interrupt them. */
export const UNFINISHED_STATUSES: readonly UploadStatus[] = [
  'waiting',
  'checking',
  'uploading',
  'merging',
];
