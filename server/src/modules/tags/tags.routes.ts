import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** A list sent as repeated keys (`a=1&a=2`) or comma-joined (`a=1,2`). */
const idList = z.preprocess(
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

const tagFields = z.object({
  id: z.string().max(64).optional(),
  tagId: z.string().max(64).optional(),
  name: z.string().max(200).optional(),
  color: z.string().max(32).optional(),
});
type TagFields = z.infer<typeof tagFields>;

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

  api.get('/tag/list', async (request) => {
    const list = await tags.list(actorOf(request));
    return ok(list, { count: list.length });
  });

  api.get(
    '/tag/info',
    {
      schema: {
        querystring: z.object({
          tagId: z.string().max(64).optional(),
          id: z.string().max(64).optional(),
        }),
      },
    },
    async (request) =>
      ok(await tags.info(actorOf(request), request.query.tagId ?? request.query.id ?? '')),
  );

  // the tags of some files: the tag dialog and the details drawer show them
  api.get(
    '/tag/fileTags',
    { schema: { querystring: z.object({ fileIds: idList }) } },
    async (request) => ok(await tags.ofFiles(actorOf(request), request.query.fileIds)),
  );

  api.post('/tag/add', async (request) => {
    const f = fieldsOf(request);
    return ok(await tags.add(actorOf(request), { name: f.name, color: f.color }), {
      message: 'Added',
    });
  });

  const update = (request: FastifyRequest) => {
    const f = fieldsOf(request);
    return tags.update(actorOf(request), { id: f.tagId ?? f.id, name: f.name, color: f.color });
  };
  api.put('/tag/update', async (request) => ok(await update(request), { message: 'Modified' }));
  api.put('/updateTag', async (request) => ok(await update(request), { message: 'Modified' }));

  api.delete(
    '/tag/delete',
    { schema: { querystring: z.object({ tagIds: idList, ids: idList, tagId: idList }) } },
    async (request) => {
      const q = request.query;
      await tags.remove(actorOf(request), [...q.tagIds, ...q.ids, ...q.tagId]);
      return ok(undefined, { message: 'Deleted' });
    },
  );
  api.delete(
    '/deleteTag',
    { schema: { querystring: z.object({ tagId: idList }) } },
    async (request) => {
      await tags.remove(actorOf(request), request.query.tagId);
      return ok(undefined, { message: 'Deleted' });
    },
  );

  api.post(
    '/tag/sort',
    {
      schema: {
        body: z.union([
          z.array(z.string().max(64)).max(10_000),
          z.object({ tagIds: z.array(z.string().max(64)).max(10_000) }),
        ]),
      },
    },
    async (request) => {
      const ids = Array.isArray(request.body) ? request.body : request.body.tagIds;
      return ok(await tags.sort(actorOf(request), ids), { message: 'Tag order updated' });
    },
  );

  api.post(
    '/setTag',
    {
      schema: {
        body: z.object({
          fileIds: z.array(z.string().max(64)).min(1).max(10_000),
          tagList: z
            .array(
              z.object({
                id: z.string().max(64).nullish(),
                tagId: z.string().max(64).nullish(),
                name: z.string().max(200).nullish(),
                color: z.string().max(32).nullish(),
              }),
            )
            .max(200)
            .default([]),
          removeTagIds: z.array(z.string().max(64)).max(200).default([]),
        }),
      },
    },
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
