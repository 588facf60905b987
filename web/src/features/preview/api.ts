import type { ArchiveListing, Envelope } from '@nimbus/contract';
import { ApiError } from '../../api/client';
import type { PreviewItem, PreviewSource } from '../../actions/viewers';

/** A JSON answer of the API for this source (the owner's route or its public twin). */
export async function fetchFromSource<T>(
  source: PreviewSource,
  path: string,
  query: Record<string, string>,
  signal?: AbortSignal,
): Promise<T> {
  const response = await fetch(source.api(path, query), {
    headers: { Accept: 'application/json', ...source.headers() },
    credentials: 'same-origin',
    signal,
  });
  let envelope: Envelope<T> | null = null;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = null;
  }
  if (!envelope || envelope.code !== 0)
    throw new ApiError(
      envelope ? 'business' : 'transport',
      envelope?.message ?? `HTTP ${response.status}`,
      envelope?.code ?? -1000,
      response.status,
    );
  return envelope.data as T;
}

export const previewKeys = {
  archive: (source: PreviewSource, item: PreviewItem) =>
    ['preview', 'archive', source.kind, item.id, item.updateDate] as const,
};

/** What an archive holds (`/preview/archive`), read without extracting it. */
export const fetchArchive = (source: PreviewSource, item: PreviewItem, signal?: AbortSignal) =>
  fetchFromSource<ArchiveListing>(source, '/preview/archive', { id: item.id }, signal);
