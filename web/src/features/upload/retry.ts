import { ErrorCode } from '@nimbus/contract';
import { ApiError } from '../../api/client';

/** Wait before retry number `attempt` (1-based): 1 s, 2 s, 4 s… at most 8 s, with a little jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(8000, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base + random() * 250);
}

/** Codes worth another try: nothing is wrong with the request itself. */
const TRANSIENT_CODES = new Set<number>([
  ErrorCode.ERROR,
  ErrorCode.OFFLINE,
  ErrorCode.LOCKED,
  ErrorCode.TOO_MANY_REQUESTS,
]);

/**
 * Dropped connections, timeouts, 5xx without an envelope and transient codes; never an abort,
 * nor anything that is not a failed request (a bug would only repeat).
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.kind === 'aborted') return false;
  if (error.kind === 'transport' || error.kind === 'timeout') return true;
  return TRANSIENT_CODES.has(error.code);
}

/** The request never reached the server or its answer never came back. */
export function isConnectionError(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.kind === 'transport' || error.kind === 'timeout') &&
    error.status === 0
  );
}

/** Resolves after `ms`, or rejects at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortError(): ApiError {
  return new ApiError('aborted', 'aborted', -1000, 0);
}

export function isAbort(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'aborted';
}
