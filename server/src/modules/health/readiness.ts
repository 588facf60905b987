import type { BlobStore } from '../../storage/blob-store.ts';

/** What readiness checks: the database and the store of the bytes. */
export type ReadinessPart = 'database' | 'storage';

/** How long a check may take before its part counts as not reachable. */
export const READINESS_TIMEOUT_MS = 2000;

/** Resolves when `work` settles within `ms`; rejects with a timeout otherwise. */
async function within(work: Promise<unknown>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the database answers its ping (a `select 1`) in time. */
export async function databaseReady(
  ping: () => Promise<void>,
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<boolean> {
  try {
    await within(ping(), timeoutMs, 'the database');
    return true;
  } catch {
    return false;
  }
}

/** Whether the store's areas are there and writable, in time. */
export async function storageReady(
  blobs: BlobStore,
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<boolean> {
  try {
    await within(blobs.probe(), timeoutMs, 'the storage');
    return true;
  } catch {
    return false;
  }
}

/** The parts that are not ready, in a fixed order; empty when the server can serve. */
export async function notReady(
  ping: () => Promise<void>,
  blobs: BlobStore,
): Promise<ReadinessPart[]> {
  const [database, storage] = await Promise.all([databaseReady(ping), storageReady(blobs)]);
  const parts: ReadinessPart[] = [];
  if (!database) parts.push('database');
  if (!storage) parts.push('storage');
  return parts;
}
