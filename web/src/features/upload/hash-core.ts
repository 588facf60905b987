import { createSHA256 } from 'hash-wasm';

export interface HashOptions {
  /** Called with the bytes hashed so far, at most every `progressEveryMs`. */
  onProgress?: (hashedBytes: number) => void;
  progressEveryMs?: number;
  isCancelled?: () => boolean;
  /**
   * Read the whole Blob and digest it in one WebCrypto call (native SHA-256, several times
   * faster than WASM) instead of streaming it. Costs about twice the Blob's size in memory for
   * a moment; falls back to streaming where WebCrypto is missing (plain-HTTP origins) or the
   * memory cannot be had.
   */
  oneShot?: boolean;
}

/**
 * The bytes of a Blob in order, as its stream hands them over (about 1 MiB at a time in
 * Chromium, read ahead while the caller works: faster than reading slices one by one).
 */
async function eachChunk(
  blob: Blob,
  options: HashOptions,
  consume: (bytes: Uint8Array, offset: number) => void,
): Promise<void> {
  const every = options.progressEveryMs ?? 100;
  const reader = blob.stream().getReader();
  let lastReport = 0;
  let offset = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (options.isCancelled?.()) throw new Error('cancelled');
      consume(value, offset);
      offset += value.byteLength;
      const now = Date.now();
      if (options.onProgress && now - lastReport >= every) {
        lastReport = now;
        options.onProgress(offset);
      }
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
}

function toHex(digest: ArrayBuffer): string {
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function hashOneShot(blob: Blob, options: HashOptions): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  let whole: Uint8Array<ArrayBuffer>;
  try {
    whole = new Uint8Array(blob.size);
  } catch {
    return null;
  }
  await eachChunk(
    blob,
    {
      ...options,
      // the read is most of the time; the digest itself takes a fraction of it
      onProgress: (read) => options.onProgress?.(Math.floor(read * 0.95)),
    },
    (bytes, offset) => whole.set(bytes, offset),
  );
  if (options.isCancelled?.()) throw new Error('cancelled');
  const hash = toHex(await subtle.digest('SHA-256', whole));
  options.onProgress?.(blob.size);
  return hash;
}

/**
 * Hex SHA-256 of a Blob: in one native digest when asked and possible, else streamed through
 * an incremental WASM hasher (WebCrypto has no incremental digest).
 */
export async function hashBlob(blob: Blob, options: HashOptions = {}): Promise<string> {
  if (options.oneShot) {
    const hash = await hashOneShot(blob, options);
    if (hash) return hash;
  }
  const hasher = await createSHA256();
  hasher.init();
  await eachChunk(blob, options, (bytes) => hasher.update(bytes));
  options.onProgress?.(blob.size);
  return hasher.digest('hex');
}
