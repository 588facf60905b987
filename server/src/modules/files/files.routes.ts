import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addFileQuery,
  answers,
  confirms,
  copyAnswer,
  deleteQuery,
  duplicateQuery,
  fileIdQuery,
  fileIdsBody,
  fileIdsQuery,
  fileItem,
  fileList,
  folderTreeQuery,
  listQuery,
  moveBody,
  moveQuery,
  newFolderQuery,
  openFolderQuery,
  operationResults,
  pathListingQuery,
  pathQuery,
  renamePathQuery,
  spaceUse,
  renameQuery,
  unzipQuery,
  type MoveRequest,
} from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import type { FileView } from './file-view.ts';

/** The ids of a request: from the query and from a JSON body. */
const idsOf = (query: { fileIds: string[] }, body: { fileIds: string[] } | null | undefined) =>
  body?.fileIds.length ? [...query.fileIds, ...body.fileIds] : query.fileIds;

/** The file tree (API-NOTES §1.3–§1.5): listings, new items, rename, move, copy, the trash. */
export async function filesRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { files, fileOps, trash, extract, tags, shares } = app.services;
  const listed = answers(fileList);
  /** A page of a listing with what the drive's listings add: tags, and whether it is shared. */
  const described = async (request: FastifyRequest, items: FileView[]) =>
    shares.withShareFacts(actorOf(request), await tags.withTags(actorOf(request), items));
  const oneItem = answers(fileItem);
  const results = answers(operationResults);

  api.get('/space', { schema: { response: answers(spaceUse) } }, async (request) =>
    ok(await files.spaceUse(actorOf(request))),
  );

  api.get('/list', { schema: { querystring: listQuery, response: listed } }, async (request) => {
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

  api.get(
    '/search-file-open',
    { schema: { querystring: openFolderQuery, response: listed } },
    async (request) => {
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
    },
  );

  api.get(
    '/file_info',
    { schema: { querystring: fileIdQuery, response: oneItem } },
    async (request) => ok(await files.info(actorOf(request), request.query.id)),
  );

  api.get(
    '/query-file-tree',
    { schema: { querystring: folderTreeQuery, response: listed } },
    async (request) => ok(await files.childFolders(actorOf(request), request.query.fileId)),
  );

  api.get(
    '/listfiles',
    { schema: { querystring: pathListingQuery, response: listed } },
    async (request) => {
      const { items, total } = await files.list(actorOf(request), {
        currentDirectory: request.query.path,
        pageIndex: 1,
        pageSize: request.query.pageSize,
      });
      return ok(items, { count: total });
    },
  );
  api.get(
    '/upper-level-list',
    { schema: { querystring: pathListingQuery, response: listed } },
    async (request) => {
      const q = request.query;
      const { items, total } = await files.listAbove(actorOf(request), q.path, q.pageSize);
      return ok(items, { count: total });
    },
  );

  api.post(
    '/new_folder',
    { schema: { querystring: newFolderQuery, response: oneItem } },
    async (request) => {
      const q = request.query;
      return ok(await files.newFolder(actorOf(request), q.currentDirectory, q.filename, q.folder));
    },
  );

  api.post(
    '/addfile',
    { schema: { querystring: addFileQuery, response: oneItem } },
    async (request) => {
      const q = request.query;
      return ok(await fileOps.addFile(actorOf(request), q.parentPath, q.fileName, q.folder));
    },
  );

  api.get(
    '/rename',
    { config: { changes: true }, schema: { querystring: renameQuery, response: oneItem } },
    async (request) =>
      ok(await fileOps.rename(actorOf(request), request.query.id, request.query.newFileName)),
  );

  api.get(
    '/rename/path',
    { config: { changes: true }, schema: { querystring: renamePathQuery, response: oneItem } },
    async (request) =>
      ok(await fileOps.renameAt(actorOf(request), request.query.path, request.query.newFileName)),
  );

  api.delete(
    '/delFile',
    { schema: { querystring: pathQuery, response: confirms } },
    async (request) => {
      await trash.trashAt(actorOf(request), request.query.path);
      return ok();
    },
  );

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
  api.get('/check-move-copy', { schema: { querystring: moveQuery, response: listed } }, (request) =>
    conflicts(request, request.query),
  );
  api.post(
    '/check-move-copy',
    { config: { readsOnly: true }, schema: { body: moveBody, response: listed } },
    (request) => conflicts(request, request.body),
  );
  // GETs that change the tree (the original client's): not for tokens that only read
  const changes = { changes: true };
  api.get(
    '/move',
    { config: changes, schema: { querystring: moveQuery, response: results } },
    (request) => move(request, request.query),
  );
  api.post('/move', { schema: { body: moveBody, response: results } }, (request) =>
    move(request, request.body),
  );
  const copied = answers(copyAnswer);
  api.get(
    '/copy',
    { config: changes, schema: { querystring: moveQuery, response: copied } },
    (request) => copy(request, request.query),
  );
  api.post('/copy', { schema: { body: moveBody, response: copied } }, (request) =>
    copy(request, request.body),
  );

  api.get(
    '/duplicate',
    { config: changes, schema: { querystring: duplicateQuery, response: oneItem } },
    async (request) =>
      ok(
        await fileOps.duplicate(actorOf(request), request.query.fileId, request.query.newFilename),
      ),
  );

  const chosen = { querystring: fileIdsQuery, body: fileIdsBody };

  api.delete(
    '/delete',
    { schema: { querystring: deleteQuery, body: fileIdsBody, response: confirms } },
    async (request) => {
      const ids = idsOf(request.query, request.body);
      if (request.query.sweep) {
        await trash.remove(actorOf(request), ids);
        return ok(undefined, { message: 'Deleted' });
      }
      await trash.trash(actorOf(request), ids);
      return ok(undefined, { message: 'Moved to the trash' });
    },
  );

  api.post('/restore', { schema: { ...chosen, response: results } }, async (request) =>
    ok(await trash.restore(actorOf(request), idsOf(request.query, request.body)), {
      message: 'Restored',
    }),
  );

  api.delete('/sweep', { schema: { ...chosen, response: confirms } }, async (request) => {
    await trash.sweep(actorOf(request), idsOf(request.query, request.body));
    return ok(undefined, { message: 'Deleted' });
  });

  api.delete('/clear-trash', { schema: { response: confirms } }, async (request) => {
    await trash.clear(actorOf(request));
    return ok(undefined, { message: 'Trash emptied' });
  });

  api.get(
    '/unzip',
    { config: changes, schema: { querystring: unzipQuery, response: oneItem } },
    async (request) =>
      ok(
        await extract.unzip(
          actorOf(request),
          request.query.fileId,
          request.query.destFileId || undefined,
        ),
        { message: 'Extracted' },
      ),
  );

  api.post('/favorite', { schema: { ...chosen, response: confirms } }, async (request) => {
    await fileOps.setFavorite(actorOf(request), idsOf(request.query, request.body), true);
    return ok();
  });

  api.post('/unFavorite', { schema: { ...chosen, response: confirms } }, async (request) => {
    await fileOps.setFavorite(actorOf(request), idsOf(request.query, request.body), false);
    return ok();
  });
}
