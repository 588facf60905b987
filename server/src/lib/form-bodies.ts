import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { badParameter } from './errors.ts';
import { joinBracketedKeys } from './query-string.ts';

/** The most a form of a JSON route holds: its text fields, and a file only where one is named. */
const FORM_LIMITS = { fields: 50, fieldSize: 64 * 1024, files: 1 };

/** A file a form may carry beside its fields: one field of one route, read whole (it is small). */
export interface FormFileRule {
  /** The route's address as its plugin registers it, e.g. `/user/update`. */
  url: string;
  field: string;
  maxBytes: number;
  /** Says what is too large, naming the field, e.g. "blobAvatar: a picture of 10 MB at most". */
  tooLarge: string;
}

/** The file of a form, once read. */
export interface FormFile {
  field: string;
  filename: string;
  /** The part's declared type (`image/png`): a cropped picture comes as `blob`, with no suffix. */
  mimetype: string;
  bytes: Buffer;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The one file a form sent where a FormFileRule allows it. */
    formFile?: FormFile;
  }
}

/**
 * The routes of this plugin also read their body as a form: multipart/form-data (as the
 * original client sends its profile, password and first-run forms, API-NOTES §1.1–§1.2) and,
 * like every route, application/x-www-form-urlencoded. Fields become the body the route's
 * schema validates, as a JSON body would be; a file part is refused unless `file` names it
 * (the profile form's picture), and then it waits on `request.formFile`.
 */
export async function acceptFormBodies(
  app: FastifyInstance,
  options: { file?: FormFileRule } = {},
): Promise<void> {
  const { file } = options;
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { ...FORM_LIMITS, fileSize: file ? file.maxBytes : 1 },
    async onFile(part) {
      if (
        file &&
        part.fieldname === file.field &&
        this.routeOptions.url === `${app.prefix}${file.url}`
      ) {
        const bytes = await part.toBuffer().catch(() => {
          throw badParameter(file.tooLarge);
        });
        this.formFile = {
          field: part.fieldname,
          filename: part.filename,
          mimetype: part.mimetype,
          bytes,
        };
        return;
      }
      part.file.resume();
      throw badParameter(`${part.fieldname}: a file is not accepted here, only text fields`);
    },
  });
  app.addHook('preValidation', async (request) => {
    if (!request.isMultipart() || !request.body || typeof request.body !== 'object') return;
    const body = { ...(request.body as Record<string, unknown>) };
    if (request.formFile) delete body[request.formFile.field];
    request.body = joinBracketedKeys(body);
  });
}
