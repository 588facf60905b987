import type { FastifyInstance, FastifyRequest } from 'fastify';
import { filesApi, type MoveRequest } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import type { FileView } from './file-view.ts';

/** The ids of a request: from the query and from a JSON body. */
const idsOf = (query: { fileIds: string[] }, body: { fileIds: string[] } | null | undefined) =>
  body?.fileIds.length ? [...query.fileIds, ...body.fileIds] : query.fileIds;

/** The file tree (API-NOTES §1.3–§1.5): listings, new items, rename, move, copy, the trash. */
export async function filesRoutes(app: FastifyInstance): Promise<void> {
  const { files, fileOps, trash, extract, tags, shares } = app.services;
  /** A page of a listing with what the drive's listings add: tags, and whether it is shared. */
  const described = async (request: FastifyRequest, items: FileView[]) =>
    shares.withShareFacts(actorOf(request), await tags.withTags(actorOf(request), items));

  serve(app, filesApi.space, async (request) => ok(await files.spaceUse(actorOf(request))));

  serve(app, filesApi.list, async (request) => {
    const q = request.query;
    const { items, total } = await files.browse(actorOf(request), {
      currentDirectory: q.currentDirectory,
      folderId: q.folder,
      queryFileType: q.queryFileType,
      isFavorite: q.isFavorite,
      tagId: q.tagId || undefined,
      isFolder: q.isFolder,
      isMount: q.isMount,
      recently: q.queryCondition?.recently,
      sortableProp: q.sortableProp,
      order: q.order,
      pageIndex: q.pageIndex,
      pageSize: q.pageSize,
    });
    return ok(await described(request, items), { count: total });
  });

  serve(app, filesApi.openFolder, async (request) => {
    const q = request.query;
    const { items, total } = await files.list(actorOf(request), {
      folderId: q.id ?? q.folder,
      sortableProp: q.sortableProp,
      order: q.order,
      pageIndex: q.pageIndex,
      pageSize: q.pageSize,
      withMounts: true,
    });
    return ok(await described(request, items), { count: total });
  });

  serve(app, filesApi.info, async (request) =>
    ok(await files.info(actorOf(request), request.query.id)),
  );

  serve(app, filesApi.folderTree, async (request) =>
    ok(await files.childFolders(actorOf(request), request.query.fileId)),
  );

  serve(app, filesApi.listPath, async (request) => {
    const { items, total } = await files.list(actorOf(request), {
      currentDirectory: request.query.path,
      pageIndex: 1,
      pageSize: request.query.pageSize,
    });
    return ok(items, { count: total });
  });
  serve(app, filesApi.listAbove, async (request) => {
    const q = request.query;
    const { items, total } = await files.listAbove(actorOf(request), q.path, q.pageSize);
    return ok(items, { count: total });
  });

  serve(app, filesApi.newFolder, async (request) => {
    const q = request.query;
    return ok(await files.newFolder(actorOf(request), q.currentDirectory, q.filename, q.folder));
  });

  serve(app, filesApi.addFile, async (request) => {
    const q = request.query;
    return ok(await fileOps.addFile(actorOf(request), q.parentPath, q.fileName, q.folder));
  });

  serve(app, filesApi.rename, async (request) =>
    ok(await fileOps.rename(actorOf(request), request.query.id, request.query.newFileName)),
  );

  serve(app, filesApi.renameAt, async (request) =>
    ok(await fileOps.renameAt(actorOf(request), request.query.path, request.query.newFileName)),
  );

  serve(app, filesApi.trashAt, async (request) => {
    await trash.trashAt(actorOf(request), request.query.path);
    return ok();
  });

  // the original client's GETs, and the same with the ids in a JSON body for long selections
  const conflicts = async (request: FastifyRequest, q: MoveRequest) => {
    const found = await fileOps.conflicts(actorOf(request), q.froms, q.to);
    return ok(found, { count: found.length });
  };
  const move = async (request: FastifyRequest, q: MoveRequest) =>
    ok(await fileOps.move(actorOf(request), q.froms, q.to, q.isOverride));
  const copy = async (request: FastifyRequest, q: MoveRequest) => {
    // a big tree copies in the background; its result arrives as an operationFile event
    const started = await fileOps.startCopy(actorOf(request), q.froms, q.to, q.isOverride);
    return ok(started.answer, started.queued ? { message: 'Copying in the background' } : {});
  };
  serve(app, filesApi.conflicts, (request) => conflicts(request, request.query));
  serve(app, filesApi.conflictsOf, (request) => conflicts(request, request.body));
  serve(app, filesApi.moveByQuery, (request) => move(request, request.query));
  serve(app, filesApi.move, (request) => move(request, request.body));
  serve(app, filesApi.copyByQuery, (request) => copy(request, request.query));
  serve(app, filesApi.copy, (request) => copy(request, request.body));

  serve(app, filesApi.duplicate, async (request) =>
    ok(await fileOps.duplicate(actorOf(request), request.query.fileId, request.query.newFilename)),
  );

  serve(app, filesApi.remove, async (request) => {
    const ids = idsOf(request.query, request.body);
    if (request.query.sweep) {
      await trash.remove(actorOf(request), ids);
      return ok(undefined, { message: 'Deleted' });
    }
    await trash.trash(actorOf(request), ids);
    return ok(undefined, { message: 'Moved to the trash' });
  });

  serve(app, filesApi.restore, async (request) =>
    ok(await trash.restore(actorOf(request), idsOf(request.query, request.body)), {
      message: 'Restored',
    }),
  );

  serve(app, filesApi.sweep, async (request) => {
    await trash.sweep(actorOf(request), idsOf(request.query, request.body));
    return ok(undefined, { message: 'Deleted' });
  });

  serve(app, filesApi.clearTrash, async (request) => {
    await trash.clear(actorOf(request));
    return ok(undefined, { message: 'Trash emptied' });
  });

  serve(app, filesApi.unzip, async (request) =>
    ok(
      await extract.unzip(
        actorOf(request),
        request.query.fileId,
        request.query.destFileId || undefined,
      ),
      { message: 'Extracted' },
    ),
  );

  serve(app, filesApi.favorite, async (request) => {
    await fileOps.setFavorite(actorOf(request), idsOf(request.query, request.body), true);
    return ok();
  });

  serve(app, filesApi.unFavorite, async (request) => {
    await fileOps.setFavorite(actorOf(request), idsOf(request.query, request.body), false);
    return ok();
  });
}
