import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SEARCH_KEYWORD_MAX } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { OCR_ENGINES } from './content/ocr.ts';
import { MAX_OCR_TASKS } from './ocr-settings.ts';

const optionalFlag = z.preprocess(
  (v) => (v === undefined || v === '' ? undefined : v === true || v === 'true' || v === '1'),
  z.boolean().optional(),
);
const flagDefault = (value: boolean) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? value : v === true || v === 'true' || v === '1'),
    z.boolean(),
  );
const optionalNumber = z.preprocess(
  (v) => (v === undefined || v === '' || v === null ? undefined : Number(v)),
  z.number().finite().min(0).optional(),
);

const searchQuery = z.object({
  keyword: z.string().max(SEARCH_KEYWORD_MAX).default(''),
  currentDirectory: z.string().max(4096).optional(),
  folder: z.string().max(64).optional(),
  tagId: z.string().max(64).optional(),
  isFolder: optionalFlag,
  isFavorite: optionalFlag,
  queryFileType: z.string().max(16).optional(),
  type: z.string().max(16).optional(),
  queryModifyStart: optionalNumber,
  queryModifyEnd: optionalNumber,
  querySizeMin: optionalNumber,
  querySizeMax: optionalNumber,
  searchOverall: flagDefault(false),
  exactSearch: flagDefault(false),
  includeTagName: flagDefault(true),
  includeFileName: flagDefault(true),
  includeFileContent: flagDefault(true),
  sortableProp: z.enum(['name', 'size', 'updateDate', 'uploadDate']).optional().catch(undefined),
  order: z.enum(['ascending', 'descending']).optional().catch(undefined),
  pageIndex: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
  // results shown while typing: not kept in the search history
  quick: flagDefault(false),
});

const ocrConfigBody = z.object({
  enable: z.boolean(),
  maxTasks: z.coerce.number().int().min(1).max(MAX_OCR_TASKS),
  ocrEngine: z.enum(OCR_ENGINES).optional().catch(undefined),
});

/** Search (API-NOTES §1.13), search history and the OCR settings (§1.12). */
export async function searchRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { search } = app.services;

  api.get('/search-file', { schema: { querystring: searchQuery } }, async (request) => {
    const q = request.query;
    const { items, total } = await search.search(actorOf(request), {
      keyword: q.keyword,
      currentDirectory: q.currentDirectory,
      folder: q.folder,
      searchOverall: q.searchOverall,
      tagId: q.tagId,
      isFolder: q.isFolder,
      isFavorite: q.isFavorite,
      fileType: q.queryFileType || q.type,
      modifiedFrom: q.queryModifyStart,
      modifiedTo: q.queryModifyEnd,
      sizeMin: q.querySizeMin,
      sizeMax: q.querySizeMax,
      exactSearch: q.exactSearch,
      includeTagName: q.includeTagName,
      includeFileName: q.includeFileName,
      includeFileContent: q.includeFileContent,
      sortableProp: q.sortableProp,
      order: q.order,
      pageIndex: q.pageIndex,
      pageSize: q.pageSize,
      remember: !q.quick,
    });
    return ok(items, { count: total });
  });

  api.get(
    '/search/recentlySearchHistory',
    {
      schema: { querystring: z.object({ keyword: z.string().max(SEARCH_KEYWORD_MAX).optional() }) },
    },
    async (request) => ok(await search.recent(actorOf(request), request.query.keyword)),
  );

  api.delete(
    '/search/deleteSearchHistory',
    { schema: { querystring: z.object({ id: z.string().max(64) }) } },
    async (request) => {
      await search.forget(actorOf(request), request.query.id);
      return ok();
    },
  );

  api.delete('/search/deleteAllSearchHistory', async (request) => {
    await search.forgetAll(actorOf(request));
    return ok();
  });

  api.get('/cloud/setting/ocr/config', async (request) =>
    ok(await search.ocrConfig(actorOf(request))),
  );

  api.put('/cloud/setting/ocr/config', { schema: { body: ocrConfigBody } }, async (request) =>
    ok(await search.setOcrConfig(actorOf(request), request.body), { message: 'Saved' }),
  );
}
