import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { MAX_AVATAR_BYTES, usersApi } from '@nimbus/contract';
import { AppError, badParameter, forbidden } from '../../lib/errors.ts';
import { acceptFormBodies, type FormFile } from '../../lib/form-bodies.ts';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
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
  const { users, avatars } = app.services;
  // the original client sends its user forms as multipart (API-NOTES §1.2), the profile's with
  // the new picture beside the fields
  await acceptFormBodies(app, {
    file: {
      url: usersApi.update.path,
      field: 'blobAvatar',
      maxBytes: MAX_AVATAR_BYTES,
      tooLarge: 'blobAvatar: a picture of 10 MB at most',
    },
  });

  serve(app, usersApi.info, async (request) => ok(await users.info(actorOf(request))));
  serve(app, usersApi.get, async (request) =>
    ok(await users.get(actorOf(request), request.query.id)),
  );
  serve(app, usersApi.defaults, async (request) => ok(users.defaults(actorOf(request))));
  serve(app, usersApi.groups, async (request) => ok(users.groups(actorOf(request)), { count: 0 }));

  serve(app, usersApi.list, async (request) => {
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

  serve(app, usersApi.add, async (request) =>
    ok(await users.add(actorOf(request), request.body), { message: 'User added' }),
  );

  serve(app, usersApi.update, async (request) => {
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
  });

  serve(app, usersApi.remove, async (request) => {
    await users.remove(actorOf(request), request.query.ids);
    return ok();
  });

  serve(app, usersApi.accessSummary, async (request) =>
    ok(await users.accessSummary(actorOf(request), request.query.id)),
  );

  serve(app, usersApi.resetPassword, async (request) => {
    const { id, password } = request.body;
    return ok({ password: await users.resetPassword(actorOf(request), id, password) });
  });

  serve(app, usersApi.checkOldPassword, async (request) => {
    const { id, password } = request.body;
    const valid = await users.checkOldPassword(actorOf(request), id, password);
    return valid
      ? ok(true)
      : { code: -2, message: 'The current password is wrong', data: undefined };
  });

  serve(app, usersApi.changePassword, async (request) => {
    const { id, oldPassword, password } = request.body;
    await users.changePassword(actorOf(request), id, oldPassword, password);
    return ok(undefined, { message: 'Password changed' });
  });

  serve(app, usersApi.theme, async (request) => ok({ theme: await users.theme(actorOf(request)) }));
  serve(app, usersApi.setTheme, async (request) => {
    await users.setTheme(actorOf(request), request.body.theme);
    return ok({ theme: request.body.theme });
  });
}
