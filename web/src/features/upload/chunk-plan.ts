import { DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE } from '@nimbus/contract';

/** localStorage key of the chunk size the server asks for (spec §3, §9). */
export const CHUNK_SIZE_KEY = 'uploader_chunk_size';

/** A usable chunk size from a stored or received value, else the default 1 MiB. */
export function normalizeChunkSize(value: unknown): number {
  const size = typeof value === 'string' ? Number(value) : value;
  return typeof size === 'number' &&
    Number.isSafeInteger(size) &&
    size > 0 &&
    size <= MAX_CHUNK_SIZE
    ? size
    : DEFAULT_CHUNK_SIZE;
}

export function storedChunkSize(storage: Pick<Storage, 'getItem'> | null): number {
  try {
    return normalizeChunkSize(storage?.getItem(CHUNK_SIZE_KEY) ?? undefined);
  } catch {
    return DEFAULT_CHUNK_SIZE;
  }
}

export interface ChunkRange {
  chunkNumber: number;
  start: number;
  end: number;
}

/**
 * The protocol's arithmetic (forceChunkSize false): floor(size / chunkSize) chunks, at least one,
 * the last one taking the remainder, so it may be up to twice the chunk size.
 */
export function totalChunksFor(totalSize: number, chunkSize: number): number {
  return Math.max(1, Math.floor(totalSize / chunkSize));
}

export function chunkRange(chunkNumber: number, totalSize: number, chunkSize: number): ChunkRange {
  const totalChunks = totalChunksFor(totalSize, chunkSize);
  const start = (chunkNumber - 1) * chunkSize;
  const end = chunkNumber === totalChunks ? totalSize : start + chunkSize;
  return { chunkNumber, start, end };
}

export function planChunks(totalSize: number, chunkSize: number): ChunkRange[] {
  const total = totalChunksFor(totalSize, chunkSize);
  return Array.from({ length: total }, (_, i) => chunkRange(i + 1, totalSize, chunkSize));
}
