import { createSHA256 } from 'hash-wasm';

/** Bytes read per step: large enough to keep the WASM busy, small enough to report progress. */
export const HASH_SLICE_BYTES = 8 * 1024 * 1024;

export interface HashOptions {
  sliceBytes?: number;
  /** Called with the bytes hashed so far, at most every `progressEveryMs`. */
  onProgress?: (hashedBytes: number) => void;
  progressEveryMs?: number;
  isCancelled?: () => boolean;
}

/**
 * Hex SHA-256 of a Blob, streamed slice by slice through an incremental hasher (WebCrypto has
 * no incremental digest). The next slice is read while the current one is hashed.
 */
export async function hashBlob(blob: Blob, options: HashOptions = {}): Promise<string> {
  const sliceBytes = options.sliceBytes ?? HASH_SLICE_BYTES;
  const every = options.progressEveryMs ?? 100;
  const hasher = await createSHA256();
  hasher.init();
  const read = (start: number) =>
    blob.slice(start, Math.min(blob.size, start + sliceBytes)).arrayBuffer();
  let lastReport = 0;
  let offset = 0;
  let next: Promise<ArrayBuffer> | null = blob.size > 0 ? read(0) : null;
  while (next) {
    const buffer = await next;
    if (options.isCancelled?.()) throw new Error('cancelled');
    const following = offset + buffer.byteLength;
    next = following < blob.size ? read(following) : null;
    hasher.update(new Uint8Array(buffer));
    offset = following;
    const now = Date.now();
    if (options.onProgress && (now - lastReport >= every || !next)) {
      lastReport = now;
      options.onProgress(offset);
    }
  }
  options.onProgress?.(blob.size);
  return hasher.digest('hex');
}
