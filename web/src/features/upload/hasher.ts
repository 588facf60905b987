import { SIMULTANEOUS_UPLOADS } from '@nimbus/contract';
import { hashBlob } from './hash-core';
import type { HashRequest, HashResponse } from './hash.worker';
import { abortError } from './retry';

const IDLE_WORKER_MS = 20_000;

interface PooledWorker {
  worker: Worker;
  idleTimer: number | null;
}

const MiB = 1024 * 1024;
/**
 * Bytes that may be hashed in one native digest at once, across files: it costs about twice the
 * file in memory for a moment, so big files, small devices and parallel jobs stream instead.
 */
const ONE_SHOT_BUDGET =
  ((navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? 0) >= 8
    ? 1024 * MiB
    : 256 * MiB;
let oneShotInUse = 0;

let nextJobId = 1;
const idle: PooledWorker[] = [];
let workersUnavailable = false;

function createWorker(): PooledWorker | null {
  if (workersUnavailable || typeof Worker === 'undefined') return null;
  try {
    const worker = new Worker(new URL('./hash.worker.ts', import.meta.url), { type: 'module' });
    return { worker, idleTimer: null };
  } catch (error) {
    console.error('Checksum worker unavailable; hashing on the page instead', error);
    workersUnavailable = true;
    return null;
  }
}

function release(pooled: PooledWorker): void {
  if (idle.length >= SIMULTANEOUS_UPLOADS) {
    pooled.worker.terminate();
    return;
  }
  pooled.idleTimer = window.setTimeout(() => {
    const index = idle.indexOf(pooled);
    if (index >= 0) idle.splice(index, 1);
    pooled.worker.terminate();
  }, IDLE_WORKER_MS);
  idle.push(pooled);
}

function acquire(): PooledWorker | null {
  const pooled = idle.pop();
  if (pooled) {
    if (pooled.idleTimer !== null) window.clearTimeout(pooled.idleTimer);
    pooled.idleTimer = null;
    return pooled;
  }
  return createWorker();
}

/**
 * The upload identifier: hex SHA-256 of the file, computed in a Web Worker (so the page stays
 * responsive) with progress. An abort terminates the worker at once.
 */
export function computeIdentifier(
  file: Blob,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<string> {
  if (signal.aborted) return Promise.reject(abortError());
  const oneShot = oneShotInUse + file.size <= ONE_SHOT_BUDGET;
  if (!oneShot) return hashWith(file, false, onProgress, signal);
  oneShotInUse += file.size;
  return hashWith(file, true, onProgress, signal).finally(() => {
    oneShotInUse -= file.size;
  });
}

function hashWith(
  file: Blob,
  oneShot: boolean,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<string> {
  const fraction = (hashed: number) => (file.size > 0 ? hashed / file.size : 1);
  const pooled = acquire();
  if (!pooled) {
    return hashBlob(file, {
      oneShot,
      onProgress: (hashed) => onProgress(fraction(hashed)),
      isCancelled: () => signal.aborted,
    }).catch((error: unknown) => {
      throw signal.aborted ? abortError() : error;
    });
  }
  const id = nextJobId++;
  return new Promise<string>((resolve, reject) => {
    const { worker } = pooled;
    const finish = () => {
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
      signal.removeEventListener('abort', onAbort);
    };
    const onMessage = (event: MessageEvent<HashResponse>) => {
      const data = event.data;
      if (data.id !== id) return;
      if (data.type === 'progress') {
        onProgress(fraction(data.hashed));
        return;
      }
      finish();
      release(pooled);
      if (data.type === 'done') resolve(data.hash);
      else reject(new Error(data.message));
    };
    const onError = (event: ErrorEvent) => {
      // a worker that cannot start (old browser, blocked script): hash on the page instead
      finish();
      worker.terminate();
      console.error('Checksum worker failed; hashing on the page instead', event.message);
      workersUnavailable = true;
      hashWith(file, oneShot, onProgress, signal).then(resolve, reject);
    };
    const onAbort = () => {
      finish();
      worker.terminate();
      reject(abortError());
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({ id, blob: file, oneShot } satisfies HashRequest);
  });
}
