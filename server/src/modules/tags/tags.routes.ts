import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  answers,
  confirms,
  fileTagsQuery,
  setTagsBody,
  tagDeleteOneQuery,
  tagDeleteQuery,
  tagFields,
  tagInfoQuery,
  tagItem,
  tagList,
  tagsByFile,
  tagSortBody,
  type TagFields,
} from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** Fields from the JSON body, else from the query (form-style calls). */
const fieldsOf = (request: FastifyRequest): TagFields => {
  const body = tagFields.safeParse(request.body ?? {});
  const query = tagFields.safeParse(request.query ?? {});
  return { ...(query.success ? query.data : {}), ...(body.success ? body.data : {}) };
};

/** Tags (API-NOTES §1.10) and file tagging (§1.5 setTag, updateTag, deleteTag). */
export async function tagsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { tags } = app.services;

  api.get('/tag/list', { schema: { response: answers(tagList) } }, async (request) => {
    const list = await tags.list(actorOf(request));
    return ok(list, { count: list.length });
  });

  api.get(
    '/tag/info',
    { schema: { querystring: tagInfoQuery, response: answers(tagItem) } },
    async (request) =>
      ok(await tags.info(actorOf(request), request.query.tagId ?? request.query.id ?? '')),
  );

  // the tags of some files: the tag dialog and the details drawer show them
  api.get(
    '/tag/fileTags',
    { schema: { querystring: fileTagsQuery, response: answers(tagsByFile) } },
    async (request) => ok(await tags.ofFiles(actorOf(request), request.query.fileIds)),
  );

  api.post('/tag/add', { schema: { response: answers(tagItem) } }, async (request) => {
    const f = fieldsOf(request);
    return ok(await tags.add(actorOf(request), { name: f.name, color: f.color }), {
      message: 'Added',
    });
  });

  const update = (request: FastifyRequest) => {
    const f = fieldsOf(request);
    return tags.update(actorOf(request), { id: f.tagId ?? f.id, name: f.name, color: f.color });
  };
  const updated = { schema: { response: answers(tagItem) } };
  api.put('/tag/update', updated, async (request) =>
    ok(await update(request), { message: 'Modified' }),
  );
  api.put('/updateTag', updated, async (request) =>
    ok(await update(request), { message: 'Modified' }),
  );

  api.delete(
    '/tag/delete',
    { schema: { querystring: tagDeleteQuery, response: confirms } },
    async (request) => {
      const q = request.query;
      await tags.remove(actorOf(request), [...q.tagIds, ...q.ids, ...q.tagId]);
      return ok(undefined, { message: 'Deleted' });
    },
  );
  api.delete(
    '/deleteTag',
    { schema: { querystring: tagDeleteOneQuery, response: confirms } },
    async (request) => {
      await tags.remove(actorOf(request), request.query.tagId);
      return ok(undefined, { message: 'Deleted' });
    },
  );

  api.post(
    '/tag/sort',
    { schema: { body: tagSortBody, response: answers(tagList) } },
    async (request) => {
      const ids = Array.isArray(request.body) ? request.body : request.body.tagIds;
      return ok(await tags.sort(actorOf(request), ids), { message: 'Tag order updated' });
    },
  );

  api.post(
    '/setTag',
    { schema: { body: setTagsBody, response: answers(tagList) } },
    async (request) => {
      const b = request.body;
      const used = await tags.setTags(actorOf(request), {
        fileIds: b.fileIds,
        tagList: b.tagList.map((t) => ({
          id: t.id ?? t.tagId ?? undefined,
          name: t.name ?? undefined,
          color: t.color ?? undefined,
        })),
        removeTagIds: b.removeTagIds,
      });
      return ok(used);
    },
  );
}
