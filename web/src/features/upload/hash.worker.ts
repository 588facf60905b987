import { hashBlob } from './hash-core';

/** Messages to the checksum worker: one job at a time per worker. */
export interface HashRequest {
  id: number;
  blob: Blob;
  /** Digest in one native call (see hashBlob). */
  oneShot: boolean;
}

export type HashResponse =
  | { id: number; type: 'progress'; hashed: number }
  | { id: number; type: 'done'; hash: string }
  | { id: number; type: 'error'; message: string };

/** The worker's global scope, typed by hand: the app compiles against the DOM library. */
const scope = self as unknown as {
  postMessage(message: HashResponse): void;
  onmessage: ((event: MessageEvent<HashRequest>) => void) | null;
};

scope.onmessage = (event: MessageEvent<HashRequest>) => {
  const { id, blob, oneShot } = event.data;
  hashBlob(blob, {
    oneShot,
    onProgress: (hashed) =>
      scope.postMessage({ id, type: 'progress', hashed } satisfies HashResponse),
  }).then(
    (hash) => scope.postMessage({ id, type: 'done', hash } satisfies HashResponse),
    (error: unknown) =>
      scope.postMessage({ id, type: 'error', message: String(error) } satisfies HashResponse),
  );
};
