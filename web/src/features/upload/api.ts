import {
  REQUEST_TIMEOUT_MS,
  TOKEN_HEADER,
  type ChunkParams,
  type ChunkResult,
  type ChunkTestResult as ContractChunkTestResult,
  type Envelope,
  type MergeAnswer,
  type PublicMergeAnswer,
  shareVisitorApi,
  uploadApi,
} from '@nimbus/contract';
import { ApiError, errorText, TRANSPORT_ERROR_CODE, xhrEnvelope } from '../../api/client';
import { callEndpointEnvelope, endpointAddress } from '../../api/endpoints';
import { useAppStore } from '../../stores/app';
import { useSessionStore } from '../../stores/session';

/** The chunk fields of the upload protocol (API notes §1.4; spec §3 upload parameters). */
export type { ChunkParams, ChunkResult } from '@nimbus/contract';

/** The fields of a merge: the uploader always sends the chunk count. */
export type MergeParams = Omit<ChunkParams, 'chunkNumber' | 'currentChunkSize'>;

/** What the server already has of a file, as the uploader reads it. */
export type ChunkTestResult = Omit<ContractChunkTestResult, 'exist'>;

/**
 * A success envelope without data. spec §8: the uploader shows its message and closes.
 */
export class NoDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoDataError';
  }
}

function dataOf<T>(envelope: Envelope<T>): T {
  if (envelope.data === undefined || envelope.data === null) {
    throw new NoDataError(errorText({ code: envelope.code, message: envelope.message }));
  }
  return envelope.data;
}

/**
 * Where an upload goes: the signed-in user's own drive, or a share a visitor uploads into (the
 * public routes, API-NOTES §1.4). The chunk protocol is the same on both.
 */
export interface UploadRoutes {
  // the checks and the chunks have one shape on both (the same body, the same answer)
  checkExist: typeof uploadApi.checkExist;
  folder: typeof uploadApi.folder | typeof shareVisitorApi.uploadFolder;
  /** What the server already has of a file. */
  test: typeof uploadApi.test | typeof shareVisitorApi.testChunk;
  chunk: typeof uploadApi.chunk;
  merge: typeof uploadApi.merge | typeof shareVisitorApi.merge;
  /**
   * Runs before each call: a share's routes put its id and token in the session, which every
   * request sends as the `shareId` and `share-token` headers (spec §6).
   */
  prepare?: () => void;
}

/** The signed-in user's own drive. */
export const OWN_DRIVE_ROUTES: UploadRoutes = {
  checkExist: uploadApi.checkExist,
  folder: uploadApi.folder,
  test: uploadApi.test,
  chunk: uploadApi.chunk,
  merge: uploadApi.merge,
};

/** The routes of a share a visitor uploads into; `select` puts the share's headers in place. */
export function shareUploadRoutes(select: () => void): UploadRoutes {
  return {
    checkExist: shareVisitorApi.checkExist,
    folder: shareVisitorApi.uploadFolder,
    test: shareVisitorApi.testChunk,
    chunk: shareVisitorApi.writeChunk,
    merge: shareVisitorApi.merge,
    prepare: select,
  };
}

/** spec §5: do same-named files or folders exist in the target folder? */
export async function checkExist(
  filenames: string[],
  currentDirectory: string,
  signal?: AbortSignal,
  routes: UploadRoutes = OWN_DRIVE_ROUTES,
): Promise<boolean> {
  routes.prepare?.();
  const envelope = await callEndpointEnvelope(
    routes.checkExist,
    { body: { filenames, currentDirectory } },
    { silent: true, signal },
  );
  return Boolean(dataOf(envelope).exist);
}

/** One folder of a folder upload; creating an existing folder again is fine. */
export async function createFolder(
  params: { filename: string; folderPath: string; currentDirectory: string },
  signal?: AbortSignal,
  routes: UploadRoutes = OWN_DRIVE_ROUTES,
): Promise<void> {
  routes.prepare?.();
  const envelope = await callEndpointEnvelope(
    routes.folder,
    { query: { isFolder: true, ...params } },
    { silent: true, signal },
  );
  dataOf(envelope);
}

/** GET upload: what the server already has of this file. */
export async function testChunk(
  params: ChunkParams,
  signal?: AbortSignal,
  routes: UploadRoutes = OWN_DRIVE_ROUTES,
): Promise<ChunkTestResult> {
  routes.prepare?.();
  const envelope = await callEndpointEnvelope(
    routes.test,
    { query: { ...params } },
    { silent: true, signal },
  );
  const data = dataOf(envelope);
  return {
    pass: Boolean(data.pass),
    resume: Array.isArray(data.resume) ? data.resume.filter((n) => Number.isInteger(n)) : [],
    upload: Boolean(data.upload),
    merge: Boolean(data.merge),
  };
}

/**
 * POST merge: the server checks the SHA-256 and puts the file in place. Idempotent; for a large
 * file it may answer "still merging" (with progress), and asking again follows the same task.
 */
export async function mergeUpload(
  params: MergeParams,
  signal?: AbortSignal,
  timeoutMs = REQUEST_TIMEOUT_MS,
  routes: UploadRoutes = OWN_DRIVE_ROUTES,
): Promise<MergeAnswer | PublicMergeAnswer> {
  routes.prepare?.();
  const envelope = await callEndpointEnvelope(
    routes.merge,
    { query: { ...params } },
    { silent: true, signal, timeoutMs },
  );
  const data = dataOf(envelope);
  if (!data.upload) throw new ApiError('business', errorText(envelope), 18, 200, envelope);
  return data;
}

/** The API client's headers (spec §7), for the XMLHttpRequest that reports upload progress. */
function setHeaders(xhr: XMLHttpRequest): void {
  const { token, username, shareToken, shareId } = useSessionStore.getState();
  xhr.setRequestHeader('Accept', 'application/json');
  xhr.setRequestHeader('lang', useAppStore.getState().lang);
  if (token) xhr.setRequestHeader(TOKEN_HEADER, token);
  if (username) {
    xhr.setRequestHeader(
      'name',
      encodeURIComponent(username) === username ? username : encodeURIComponent(username),
    );
  }
  if (shareToken) xhr.setRequestHeader('share-token', shareToken);
  if (shareId) xhr.setRequestHeader('shareId', shareId);
}

export interface SendChunkOptions {
  signal: AbortSignal;
  /** Bytes of this chunk on the wire so far. */
  onProgress: (sentBytes: number) => void;
  /** Abort when nothing moved for this long (the request is retried). */
  stallMs?: number;
}

/**
 * POST upload as multipart: every field first, then the `file` part, so the server knows where
 * the bytes go before they arrive. XMLHttpRequest because fetch reports no upload progress.
 */
export function sendChunk(
  params: ChunkParams,
  bytes: Blob,
  { signal, onProgress, stallMs = REQUEST_TIMEOUT_MS }: SendChunkOptions,
  routes: UploadRoutes = OWN_DRIVE_ROUTES,
): Promise<ChunkResult> {
  routes.prepare?.();
  return new Promise<ChunkResult>((resolve, reject) => {
    if (signal.aborted) {
      reject(new ApiError('aborted', 'aborted', TRANSPORT_ERROR_CODE, 0));
      return;
    }
    const form = new FormData();
    for (const [key, value] of Object.entries(params)) form.append(key, String(value));
    form.append('file', bytes, params.filename);

    const xhr = new XMLHttpRequest();
    let stallTimer = 0;
    let stalled = false;
    const armStall = () => {
      window.clearTimeout(stallTimer);
      stallTimer = window.setTimeout(() => {
        stalled = true;
        xhr.abort();
      }, stallMs);
    };
    const cleanUp = () => {
      window.clearTimeout(stallTimer);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => xhr.abort();
    signal.addEventListener('abort', onAbort, { once: true });

    xhr.open('POST', endpointAddress(routes.chunk));
    setHeaders(xhr);
    xhr.upload.onprogress = (event) => {
      armStall();
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.min(bytes.size, Math.round((event.loaded / event.total) * bytes.size)));
      }
    };
    xhr.upload.onload = () => {
      onProgress(bytes.size);
      armStall();
    };
    xhr.onabort = () => {
      cleanUp();
      reject(
        stalled
          ? new ApiError('timeout', 'the upload stalled', TRANSPORT_ERROR_CODE, 0)
          : new ApiError('aborted', 'aborted', TRANSPORT_ERROR_CODE, 0),
      );
    };
    xhr.onerror = () => {
      cleanUp();
      reject(new ApiError('transport', 'network error', TRANSPORT_ERROR_CODE, 0));
    };
    xhr.onload = () => {
      cleanUp();
      const refreshed = xhr.getResponseHeader(TOKEN_HEADER);
      const session = useSessionStore.getState();
      if (refreshed && session.token && refreshed !== session.token) session.setToken(refreshed);
      try {
        const data = dataOf(xhrEnvelope<Partial<ChunkResult>>(xhr));
        resolve({ upload: data.upload !== false, merge: Boolean(data.merge) });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    armStall();
    xhr.send(form);
  });
}
