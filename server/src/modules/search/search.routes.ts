import type { FastifyInstance } from 'fastify';
import { ocrConfigApi, searchApi, searchHistoryApi } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** Search (API-NOTES §1.13), search history and the OCR settings (§1.12). */
export async function searchRoutes(app: FastifyInstance): Promise<void> {
  const { search, shares } = app.services;

  serve(app, searchApi.search, async (request) => {
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
    // whether each hit is shared, as the drive's listings say (one query for the page)
    return ok(await shares.withShareFacts(actorOf(request), items), { count: total });
  });

  serve(app, searchHistoryApi.recent, async (request) =>
    ok(await search.recent(actorOf(request), request.query.keyword)),
  );
  serve(app, searchHistoryApi.forget, async (request) => {
    await search.forget(actorOf(request), request.query.id);
    return ok();
  });
  serve(app, searchHistoryApi.forgetAll, async (request) => {
    await search.forgetAll(actorOf(request));
    return ok();
  });

  serve(app, ocrConfigApi.config, async (request) => ok(await search.ocrConfig(actorOf(request))));
  serve(app, ocrConfigApi.setConfig, async (request) =>
    ok(await search.setOcrConfig(actorOf(request), request.body), { message: 'Saved' }),
  );
}
