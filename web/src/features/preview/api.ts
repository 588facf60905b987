import {
  previewApi,
  shareVisitorApi,
  type AnswerOf,
  type Endpoint,
  type Envelope,
  type QueryIn,
} from '@nimbus/contract';
import { ApiError } from '../../api/client';
import { sourceAddress } from '../../actions/preview-sources';
import type { PreviewItem, PreviewSource } from '../../actions/viewers';

/** A JSON answer of the API for this source: the owner's endpoint or its public twin. */
export async function fetchFromSource<Own extends Endpoint, Visitor extends Endpoint>(
  source: PreviewSource,
  twins: { owner: Own; visitor: Visitor },
  query: QueryIn<Own>,
  signal?: AbortSignal,
): Promise<AnswerOf<Own>> {
  type T = AnswerOf<Own>;
  const response = await fetch(sourceAddress(source, twins, query), {
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

/** What an archive holds, read without extracting it. */
export const fetchArchive = (source: PreviewSource, item: PreviewItem, signal?: AbortSignal) =>
  fetchFromSource(
    source,
    { owner: previewApi.archive, visitor: shareVisitorApi.previewArchive },
    { id: item.id },
    signal,
  );
