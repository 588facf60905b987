import { MAX_CHUNK_RETRIES, SIMULTANEOUS_UPLOADS, type Envelope } from '@nimbus/contract';
import { request } from '../../api/client';
import { toQueryString } from '../../api/query-string';
import { browserStorage } from '../../stores/storage';
import { chunkRange, storedChunkSize, totalChunksFor } from '../upload/chunk-plan';
import { computeIdentifier } from '../upload/hasher';
import { cleanRelativePath, foldersToCreate, topLevelNames } from '../upload/paths';
import { backoffMs, isRetryable, sleep } from '../upload/retry';
import { selectShare } from './share-tokens';

// Uploads into a share speak the owner's chunk protocol against the public endpoints
// (API-NOTES §1.4): the hashing, chunk arithmetic, path and retry rules are the uploader's own.

export type PublicUploadStatus =
  'waiting' | 'checking' | 'uploading' | 'merging' | 'success' | 'failure';

export interface PublicUploadItem {
  id: string;
  name: string;
  relativePath: string;
  size: number;
  status: PublicUploadStatus;
  /** 0..1 */
  progress: number;
  error?: string;
}

export interface PickedShareFile {
  file: File;
  /** `name`, or `folder/sub/name` inside a picked folder. */
  relativePath: string;
}

/** Whether names exist in the target folder, and whether this share may replace them. */
export async function checkShareNames(
  shareId: string,
  currentDirectory: string,
  picked: PickedShareFile[],
): Promise<{ exist: boolean; replace: boolean }> {
  selectShare(shareId);
  const envelope = await request<{ exist?: boolean; replace?: boolean }>('/public/checkExist', {
    method: 'POST',
    body: { filenames: topLevelNames(picked.map((p) => p.relativePath)), currentDirectory },
  });
  return { exist: Boolean(envelope.data?.exist), replace: Boolean(envelope.data?.replace) };
}

async function withRetries<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt > MAX_CHUNK_RETRIES || !isRetryable(error)) throw error;
      await sleep(backoffMs(attempt));
    }
  }
}

const quiet = { silent: true } as const;

async function uploadOne(
  shareId: string,
  currentDirectory: string,
  picked: PickedShareFile,
  update: (patch: Partial<PublicUploadItem>) => void,
): Promise<void> {
  const { file } = picked;
  update({ status: 'checking', progress: 0 });
  const identifier = await computeIdentifier(file, () => undefined, new AbortController().signal);
  const chunkSize = storedChunkSize(browserStorage());
  const totalChunks = totalChunksFor(file.size, chunkSize);
  const base = {
    chunkSize,
    totalSize: file.size,
    totalChunks,
    identifier,
    filename: file.name,
    relativePath: picked.relativePath,
    currentDirectory,
    lastModified: file.lastModified,
  };
  update({ status: 'uploading' });
  const first = await withRetries(() =>
    request<{ pass?: boolean; resume?: number[] }>('/public/upload', {
      ...quiet,
      params: {
        ...base,
        chunkNumber: 1,
        currentChunkSize: chunkRange(1, file.size, chunkSize).end,
      },
    }),
  );
  const have = new Set(first.data?.resume ?? []);
  if (!first.data?.pass) {
    let done = have.size;
    for (let n = 1; n <= totalChunks; n++) {
      if (have.has(n)) continue;
      const range = chunkRange(n, file.size, chunkSize);
      await withRetries(() => {
        const form = new FormData();
        const fields = { ...base, chunkNumber: n, currentChunkSize: range.end - range.start };
        for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
        form.append('file', file.slice(range.start, range.end), file.name);
        return request<{ merge?: boolean }>('/public/upload', {
          ...quiet,
          method: 'POST',
          body: form,
        });
      });
      done += 1;
      update({ progress: done / totalChunks });
    }
    update({ status: 'merging' });
    // a large file merges in the background: ask again while the answer is "still merging"
    for (;;) {
      const merged = await withRetries(() =>
        request<{ merging?: boolean }>(`/public/merge${toQueryString(base)}`, {
          ...quiet,
          method: 'POST',
          timeoutMs: 2 * 60_000,
        }),
      );
      if (!merged.data?.merging) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  update({ status: 'success', progress: 1 });
}

/**
 * Upload picked files (and the folders of a picked folder) into a folder of a share, three at a
 * time (spec §9). Each file reports through `onChange`; failures keep the server's message.
 */
export async function uploadToShare(
  shareId: string,
  currentDirectory: string,
  picked: PickedShareFile[],
  onChange: (items: PublicUploadItem[]) => void,
): Promise<PublicUploadItem[]> {
  selectShare(shareId);
  const files = picked.map((p) => ({
    ...p,
    relativePath: cleanRelativePath(p.relativePath, p.file.name),
  }));
  let items: PublicUploadItem[] = files.map((p, i) => ({
    id: `${i}-${p.relativePath}`,
    name: p.file.name,
    relativePath: p.relativePath,
    size: p.file.size,
    status: 'waiting',
    progress: 0,
  }));
  const publish = () => onChange(items);
  const patch = (index: number, change: Partial<PublicUploadItem>) => {
    items = items.map((item, i) => (i === index ? { ...item, ...change } : item));
    publish();
  };
  publish();
  try {
    for (const folder of foldersToCreate(files.map((f) => f.relativePath))) {
      await request('/public/upload-folder', {
        ...quiet,
        method: 'POST',
        params: { isFolder: true, ...folder, currentDirectory },
      });
    }
  } catch (error) {
    items = items.map((item) => ({ ...item, status: 'failure', error: messageOf(error) }));
    publish();
    return items;
  }
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const index = next++;
      try {
        await uploadOne(shareId, currentDirectory, files[index]!, (change) => patch(index, change));
      } catch (error) {
        patch(index, { status: 'failure', error: messageOf(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SIMULTANEOUS_UPLOADS, files.length) }, worker));
  return items;
}

function messageOf(error: unknown): string {
  const envelope = (error as { envelope?: Envelope }).envelope;
  if (envelope?.message) return envelope.message;
  return error instanceof Error ? error.message : String(error);
}
