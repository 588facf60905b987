import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addUserBody,
  idsQuery,
  personalizationBody,
  recordIdSchema,
  resetPassBody,
  updatePassBody,
  updateUserBody,
  userListQuery,
  validOldPassBody,
} from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { users } = app.services;

  api.get('/user/info', async (request) => ok(await users.info(actorOf(request))));

  api.get(
    '/user/userInfo',
    { schema: { querystring: z.object({ id: recordIdSchema }) } },
    async (request) => ok(await users.get(actorOf(request), request.query.id)),
  );

  api.get('/user/userList', { schema: { querystring: userListQuery } }, async (request) => {
    const q = request.query;
    const { items, total } = await users.list(actorOf(request), {
      username: q.username,
      showName: q.showName,
      sortProp: q.sortProp,
      sortOrder: q.sortOrder,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return ok(items, { count: total });
  });

  api.post('/user/add', { schema: { body: addUserBody } }, async (request) =>
    ok(await users.add(actorOf(request), request.body), { message: 'User added' }),
  );

  api.put('/user/update', { schema: { body: updateUserBody } }, async (request) => {
    const { id, ...fields } = request.body;
    return ok(await users.update(actorOf(request), id, fields));
  });

  api.delete('/user/delete', { schema: { querystring: idsQuery } }, async (request) => {
    await users.remove(actorOf(request), request.query.ids);
    return ok();
  });

  api.put('/user/reset-pass', { schema: { body: resetPassBody } }, async (request) => {
    const password = await users.resetPassword(
      actorOf(request),
      request.body.id,
      request.body.password,
    );
    return ok({ password });
  });

  api.post('/valid-old-pass', { schema: { body: validOldPassBody } }, async (request, reply) => {
    const valid = await users.checkOldPassword(
      actorOf(request),
      request.body.id,
      request.body.password,
    );
    return valid ? ok(true) : reply.send({ code: -2, message: 'The current password is wrong' });
  });

  api.put('/user/update-pass', { schema: { body: updatePassBody } }, async (request) => {
    const { id, oldPassword, password } = request.body;
    await users.changePassword(actorOf(request), id, oldPassword, password);
    return ok(undefined, { message: 'Password changed' });
  });

  api.get('/user/setting/personalization', async (request) =>
    ok({ theme: await users.theme(actorOf(request)) }),
  );

  api.post(
    '/user/setting/personalization',
    { schema: { body: personalizationBody } },
    async (request) => {
      await users.setTheme(actorOf(request), request.body.theme);
      return ok({ theme: request.body.theme });
    },
  );
}
