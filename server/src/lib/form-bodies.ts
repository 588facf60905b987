import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { badParameter } from './errors.ts';
import { joinBracketedKeys } from './query-string.ts';

/** The most a form of a JSON route holds: its text fields, never files. */
const FORM_LIMITS = { fields: 50, fieldSize: 64 * 1024, files: 1, fileSize: 1 };

/**
 * The routes of this plugin also read their body as a form: multipart/form-data (as the
 * original client sends its profile, password and first-run forms, API-NOTES §1.1–§1.2) and,
 * like every route, application/x-www-form-urlencoded. Fields become the body the route's
 * schema validates, as a JSON body would be; a file part is refused.
 */
export async function acceptFormBodies(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: FORM_LIMITS,
    onFile(part) {
      part.file.resume();
      throw badParameter(`${part.fieldname}: a file is not accepted here, only text fields`);
    },
  });
  app.addHook('preValidation', async (request) => {
    if (request.isMultipart() && request.body && typeof request.body === 'object')
      request.body = joinBracketedKeys(request.body as Record<string, unknown>);
  });
}
