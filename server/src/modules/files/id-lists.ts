import { MAX_IDS_PER_REQUEST } from '@nimbus/contract';
import { z } from 'zod';

/** A list in the query string, sent as repeated keys (`a=1&a=2`) or comma-joined (`a=1,2`). */
export const idList = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === '') return [];
    const items = Array.isArray(v) ? v : [v];
    return items
      .flatMap((x) => String(x).split(','))
      .map((x) => x.trim())
      .filter(Boolean);
  },
  z.array(z.string().max(64)),
);

/**
 * Ids in a JSON body: a query string holds only a few hundred before the HTTP header limit, and
 * a selection of a whole folder can hold 100,000.
 */
export const idArray = z.array(z.string().max(64)).max(MAX_IDS_PER_REQUEST);

/** `{ fileIds: [...] }`, beside or instead of `fileIds` in the query (no body: null). */
export const idsBody = z.object({ fileIds: idArray.default([]) }).nullish();

/** The ids of a request: from the query and from a JSON body. */
export const idsOf = (
  query: { fileIds: string[] },
  body: { fileIds: string[] } | null | undefined,
) => (body?.fileIds.length ? [...query.fileIds, ...body.fileIds] : query.fileIds);
