import { MAX_CHUNK_SIZE, type ChunkParams } from '@nimbus/contract';
import { badParameter } from '../../lib/errors.ts';
import { sha256 } from '../../lib/ids.ts';
import { checkName, checkPathLength, folderPathOf, parseFolderPath } from '../files/names.ts';

/** Chunks of one upload at most (10 TiB in chunks of 1 MiB): each is a row. */
const MAX_CHUNKS = 10_000_000;
/** The largest date a JavaScript Date holds, either side of 1970, in milliseconds. */
const MAX_DATE_MS = 8.64e15;
const HASH_PATTERN = /^[0-9a-f]{64}$/;
/** The original client's identifier: the size and the relative path without punctuation. */
const IDENTIFIER_PATTERN = /^[0-9A-Za-z_-]{1,128}$/;

/**
 * Whether an upload's identifier is the SHA-256 of its content: only then is the content
 * checked against it at the merge, and only then may the upload complete from a file of the
 * same content (instant upload). Any other identifier (`57-hellotxt`) only names the upload.
 */
export function isContentHash(identifier: string): boolean {
  return HASH_PATTERN.test(identifier);
}

// The rules of the upload protocol (simple-uploader.js style, API-NOTES §1.4): where a file goes,
// what names its session, and the arithmetic of its chunks.

/** The folder a file of this upload goes to: current folder + folder path + relative path. */
export function targetSegments(
  p: Pick<ChunkParams, 'currentDirectory' | 'relativePath' | 'folderPath' | 'filename'>,
): string[] {
  const base = parseFolderPath(p.currentDirectory);
  const relative = parseFolderPath(p.relativePath, checkName, 'The relative path');
  const inner =
    relative.length > 1
      ? relative.slice(0, -1)
      : parseFolderPath(p.folderPath, checkName, 'The folder path');
  const segments = [...base, ...inner];
  checkPathLength([...segments, p.filename], 'The path of the file');
  return segments;
}

/**
 * A visitor's sessions are their own: keyed by the share they upload through (`visitorShareId`)
 * as well, never shared with the owner's.
 */
export function sessionKey(userId: string, p: ChunkParams, visitorShareId?: string): string {
  const target = folderPathOf(targetSegments(p));
  const origin = visitorShareId ? `\nshare:${visitorShareId}` : '';
  // an identifier that is not the content's hash names the file, not its bytes: its date tells
  // a changed file of the same size and name apart, so its chunks never join the old ones'
  const date = isContentHash(p.identifier) ? '' : `\nmodified:${p.lastModified ?? ''}`;
  return sha256(
    `${userId}\n${p.identifier}\n${target}\n${p.filename}\n${p.totalSize}\n${p.chunkSize}${origin}${date}`,
  );
}

/** The fields that name an upload: its file, its sizes and its date. */
export function validateFile(
  p: Pick<
    ChunkParams,
    'filename' | 'identifier' | 'totalSize' | 'chunkSize' | 'totalChunks' | 'lastModified'
  >,
): void {
  checkName(p.filename);
  if (!IDENTIFIER_PATTERN.test(p.identifier))
    throw badParameter(
      'identifier: the SHA-256 of the file, or at most 128 letters, digits, "-" and "_"',
    );
  if (!Number.isSafeInteger(p.totalSize) || p.totalSize < 0)
    throw badParameter('Invalid file size');
  if (!Number.isSafeInteger(p.chunkSize) || p.chunkSize < 1 || p.chunkSize > MAX_CHUNK_SIZE) {
    throw badParameter(
      `The chunk size must be between 1 byte and ${MAX_CHUNK_SIZE / 1024 / 1024} MiB`,
    );
  }
  const expectedChunks = Math.max(1, Math.floor(p.totalSize / p.chunkSize));
  if (expectedChunks > MAX_CHUNKS)
    throw badParameter(
      `A file is sent in at most ${MAX_CHUNKS.toLocaleString('en')} chunks; use larger chunks`,
    );
  if (p.totalChunks !== expectedChunks)
    throw badParameter(`Expected ${expectedChunks} chunks for this size, not ${p.totalChunks}`);
  if (
    p.lastModified !== undefined &&
    (!Number.isFinite(p.lastModified) || Math.abs(p.lastModified) > MAX_DATE_MS)
  ) {
    throw badParameter(
      'lastModified must be a date in milliseconds since 1970, at most 8.64e15 either side',
    );
  }
}

/** The protocol's arithmetic: the last chunk takes the remainder (it may reach 2× chunkSize). */
export function validateChunk(p: ChunkParams): void {
  validateFile(p);
  if (!Number.isInteger(p.chunkNumber) || p.chunkNumber < 1 || p.chunkNumber > p.totalChunks) {
    throw badParameter(`Chunk ${p.chunkNumber} is outside 1..${p.totalChunks}`);
  }
  if (p.currentChunkSize !== expectedChunkSize(p)) {
    throw badParameter(
      `Chunk ${p.chunkNumber} must be ${expectedChunkSize(p)} bytes, not ${p.currentChunkSize}`,
    );
  }
}

export function expectedChunkSize(
  p: Pick<ChunkParams, 'chunkNumber' | 'totalChunks' | 'chunkSize' | 'totalSize'>,
): number {
  return p.chunkNumber < p.totalChunks
    ? p.chunkSize
    : p.totalSize - (p.totalChunks - 1) * p.chunkSize;
}

/** What an upload may do besides adding a file; uploads into a share may do less. */
export interface UploadPolicy {
  /** Complete at once from a file of the same owner with the same content hash. */
  instantCopy: boolean;
  /** Replace a same-named file (the previous one goes to the trash). */
  replace: boolean;
  /** A share visitor's upload: its sessions are bounded per share and address. */
  visitor?: { shareId: string; address: string };
  /** Who a replaced document's version names, when not the owner (see SHARE_VISITOR_OPERATOR). */
  operator?: string;
}
