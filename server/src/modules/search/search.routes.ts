import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SEARCH_KEYWORD_MAX } from '@nimbus/contract';
import { requireAuthority } from '../../lib/access.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { OCR_ENGINES } from './content/ocr.ts';
import { pdfToolsAvailable } from './content/pdf.ts';
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

const FILE_TYPES = new Set(['image', 'video', 'audio', 'document', 'text', 'archive', 'other']);

/** Search (API-NOTES §1.13), search history and the OCR settings (§1.12). */
export async function searchRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { search, searchIndex, ocrSettings, ocr } = app.services;

  // the index follows the tree from the start; its jobs stop before the database closes
  app.addHook('onReady', () => searchIndex.start());
  app.addHook('onClose', () => searchIndex.stop());

  api.get('/search-file', { schema: { querystring: searchQuery } }, async (request) => {
    const q = request.query;
    const type = q.queryFileType || q.type;
    const { items, total } = await search.search(actorOf(request), {
      keyword: q.keyword,
      currentDirectory: q.currentDirectory,
      folder: q.folder || undefined,
      searchOverall: q.searchOverall,
      tagId: q.tagId || undefined,
      isFolder: q.isFolder,
      isFavorite: q.isFavorite,
      fileType: type && FILE_TYPES.has(type) ? type : undefined,
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

  const ocrView = async () => {
    const config = await ocrSettings.get();
    const available = ocr.available();
    return {
      ...config,
      engines: {
        tesseract: available.tesseract,
        'tesseract.js': available.tesseractJs,
      },
      languages: available.tesseractLanguages,
      pdfText: pdfToolsAvailable(),
    };
  };

  api.get('/cloud/setting/ocr/config', async (request) => {
    requireAuthority(actorOf(request), 'cloud:set:sync');
    return ok(await ocrView());
  });

  api.put(
    '/cloud/setting/ocr/config',
    {
      schema: {
        body: z.object({
          enable: z.boolean(),
          maxTasks: z.coerce.number().int().min(1).max(MAX_OCR_TASKS),
          ocrEngine: z.enum(OCR_ENGINES).optional().catch(undefined),
        }),
      },
    },
    async (request) => {
      requireAuthority(actorOf(request), 'cloud:set:sync');
      const before = await ocrSettings.get();
      const b = request.body;
      await ocrSettings.set({
        enable: b.enable,
        maxTasks: b.maxTasks,
        ocrEngine: b.ocrEngine ?? before.ocrEngine,
      });
      // switched on: images and scans skipped while it was off are read now
      if (b.enable && !before.enable) await searchIndex.retryOcrSkipped();
      return ok(await ocrView(), { message: 'Saved' });
    },
  );
}
