import type { FastifyInstance } from 'fastify';
import { tagsApi, type TagFields } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve, type EndpointRequest } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** Fields from the JSON body, else from the query (form-style calls). */
const fieldsOf = (request: EndpointRequest<typeof tagsApi.add>): TagFields => ({
  ...request.query,
  ...request.body,
});

/** Tags (API-NOTES §1.10) and file tagging (§1.5 setTag, updateTag, deleteTag). */
export async function tagsRoutes(app: FastifyInstance): Promise<void> {
  const { tags } = app.services;

  serve(app, tagsApi.list, async (request) => {
    const list = await tags.list(actorOf(request));
    return ok(list, { count: list.length });
  });
  serve(app, tagsApi.info, async (request) =>
    ok(await tags.info(actorOf(request), request.query.tagId ?? request.query.id ?? '')),
  );
  serve(app, tagsApi.ofFiles, async (request) =>
    ok(await tags.ofFiles(actorOf(request), request.query.fileIds)),
  );
  serve(app, tagsApi.add, async (request) => {
    const f = fieldsOf(request);
    return ok(await tags.add(actorOf(request), { name: f.name, color: f.color }), {
      message: 'Added',
    });
  });

  const update = async (request: EndpointRequest<typeof tagsApi.update>) => {
    const f = fieldsOf(request);
    const tag = await tags.update(actorOf(request), {
      id: f.tagId ?? f.id,
      name: f.name,
      color: f.color,
    });
    return ok(tag, { message: 'Modified' });
  };
  serve(app, tagsApi.update, update);
  serve(app, tagsApi.updateOriginal, update);

  serve(app, tagsApi.remove, async (request) => {
    const q = request.query;
    await tags.remove(actorOf(request), [...q.tagIds, ...q.ids, ...q.tagId]);
    return ok(undefined, { message: 'Deleted' });
  });
  serve(app, tagsApi.removeOriginal, async (request) => {
    await tags.remove(actorOf(request), request.query.tagId);
    return ok(undefined, { message: 'Deleted' });
  });

  serve(app, tagsApi.sort, async (request) => {
    const ids = Array.isArray(request.body) ? request.body : request.body.tagIds;
    return ok(await tags.sort(actorOf(request), ids), { message: 'Tag order updated' });
  });

  serve(app, tagsApi.setOnFiles, async (request) => {
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
  });
}
