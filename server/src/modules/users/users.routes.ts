import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accessSummary,
  accessSummaryQuery,
  answers,
  confirms,
  addUserBody,
  personalizationBody as personalization,
  resetPassResult,
  userInfo,
  userInfoQuery,
  userList,
  groupList,
  userListItem,
  idsQuery,
  resetPassBody,
  updatePassBody,
  updateUserBody,
  userListQuery,
  validOldPassBody,
} from '@nimbus/contract';
import { acceptFormBodies } from '../../lib/form-bodies.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { users } = app.services;
  // the original client sends its user forms as multipart (API-NOTES §1.2)
  await acceptFormBodies(app);

  api.get('/user/info', { schema: { response: answers(userInfo) } }, async (request) =>
    ok(await users.info(actorOf(request))),
  );

  api.get(
    '/user/userInfo',
    { schema: { querystring: userInfoQuery, response: answers(userListItem) } },
    async (request) => ok(await users.get(actorOf(request), request.query.id)),
  );

  api.get('/group/list', { schema: { response: answers(groupList) } }, async (request) =>
    ok(users.groups(actorOf(request)), { count: 0 }),
  );

  api.get(
    '/user/userList',
    { schema: { querystring: userListQuery, response: answers(userList) } },
    async (request) => {
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
    },
  );

  api.post(
    '/user/add',
    { schema: { body: addUserBody, response: answers(userListItem) } },
    async (request) =>
      ok(await users.add(actorOf(request), request.body), { message: 'User added' }),
  );

  api.put(
    '/user/update',
    { schema: { body: updateUserBody, response: answers(userListItem) } },
    async (request) => {
      const { id, ...fields } = request.body;
      return ok(await users.update(actorOf(request), id, fields));
    },
  );

  api.delete(
    '/user/delete',
    { schema: { querystring: idsQuery, response: confirms } },
    async (request) => {
      await users.remove(actorOf(request), request.query.ids);
      return ok();
    },
  );

  // what a new password (or two-factor sign-in turned on) would end, for the confirmation
  api.get(
    '/user/access-summary',
    { schema: { querystring: accessSummaryQuery, response: answers(accessSummary) } },
    async (request) => ok(await users.accessSummary(actorOf(request), request.query.id)),
  );

  api.put(
    '/user/reset-pass',
    {
      config: { sessionOnly: true },
      schema: { body: resetPassBody, response: answers(resetPassResult) },
    },
    async (request) => {
      const password = await users.resetPassword(
        actorOf(request),
        request.body.id,
        request.body.password,
      );
      return ok({ password });
    },
  );

  api.post(
    '/valid-old-pass',
    {
      config: { sessionOnly: true },
      schema: { body: validOldPassBody, response: answers(z.boolean().optional()) },
    },
    async (request, reply) => {
      const valid = await users.checkOldPassword(
        actorOf(request),
        request.body.id,
        request.body.password,
      );
      return valid ? ok(true) : reply.send({ code: -2, message: 'The current password is wrong' });
    },
  );

  api.put(
    '/user/update-pass',
    { config: { sessionOnly: true }, schema: { body: updatePassBody, response: confirms } },
    async (request) => {
      const { id, oldPassword, password } = request.body;
      await users.changePassword(actorOf(request), id, oldPassword, password);
      return ok(undefined, { message: 'Password changed' });
    },
  );

  api.get(
    '/user/setting/personalization',
    { schema: { response: answers(personalization) } },
    async (request) => ok({ theme: await users.theme(actorOf(request)) }),
  );

  api.post(
    '/user/setting/personalization',
    { schema: { body: personalization, response: answers(personalization) } },
    async (request) => {
      await users.setTheme(actorOf(request), request.body.theme);
      return ok({ theme: request.body.theme });
    },
  );
}
