import { Readable } from 'node:stream';
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
  userDefaults,
  userListQuery,
  validOldPassBody,
  MAX_AVATAR_BYTES,
} from '@nimbus/contract';
import { AppError, badParameter, forbidden } from '../../lib/errors.ts';
import { acceptFormBodies, type FormFile } from '../../lib/form-bodies.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** Picture types by declared type, for a cropped picture sent as `blob` with no suffix. */
const PICTURE_SUFFIX: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** The name the picture is kept under: its own when it has a suffix, else one from its type. */
function pictureName(picture: FormFile): string {
  if (/\.[^.]+$/.test(picture.filename)) return picture.filename;
  return `avatar.${PICTURE_SUFFIX[picture.mimetype] ?? 'bin'}`;
}

export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { users, avatars } = app.services;
  // the original client sends its user forms as multipart (API-NOTES §1.2), the profile's with
  // the new picture beside the fields
  await acceptFormBodies(app, {
    file: {
      url: '/user/update',
      field: 'blobAvatar',
      maxBytes: MAX_AVATAR_BYTES,
      tooLarge: 'blobAvatar: a picture of 10 MB at most',
    },
  });

  api.get('/user/info', { schema: { response: answers(userInfo) } }, async (request) =>
    ok(await users.info(actorOf(request))),
  );

  api.get(
    '/user/userInfo',
    { schema: { querystring: userInfoQuery, response: answers(userListItem) } },
    async (request) => ok(await users.get(actorOf(request), request.query.id)),
  );

  api.get('/user/defaults', { schema: { response: answers(userDefaults) } }, async (request) =>
    ok(users.defaults(actorOf(request))),
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
      const actor = actorOf(request);
      const picture = request.formFile;
      if (picture) {
        // the picture is checked and kept first: a refused one leaves the profile as it was
        if (id !== actor.id) throw forbidden('blobAvatar: only your own picture can be changed');
        await avatars
          .uploadAvatar(actor, pictureName(picture), Readable.from([picture.bytes]))
          .catch((err: unknown) => {
            // the picture's checks speak of `file`, the avatar upload's field; this form's is
            if (err instanceof AppError && err.message.startsWith('file:'))
              throw badParameter(err.message.replace(/^file:/, 'blobAvatar:'));
            throw err;
          });
      }
      return ok(await users.update(actor, id, fields));
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
