import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { publicShareQuery } from './share.ts';
import { clientText, flag } from './validation.ts';

// Previews (API-NOTES §1.6, §1.12, spec §3, §7): a file's text with its charset, the Preview
// Config of iframe viewers, and what an archive holds.

/** `/preview/text` answers at most this many bytes of a file; the streamed variant has it all. */
export const TEXT_PREVIEW_MAX_BYTES = 2 * 1024 * 1024;
/** The Preview Config is a short JSON5 text. */
export const PREVIEW_CONFIG_MAX_CHARS = 64 * 1024;
/** An archive's listing stops after this many entries. */
export const ARCHIVE_LISTING_MAX_ENTRIES = 20_000;

const id = z.string().max(64);
/** A path field: one its sender encoded itself is decoded (clientText). */
const treePath = clientText(z.string().max(4096));

/** `GET /preview/text?id&path&fileName&content`, `/preview/text/stream?id`. */
export const previewTextQuery = z
  .object({
    id,
    path: treePath.optional(),
    fileName: z.string().max(1024).optional(),
    content: flag().optional(),
  })
  .passthrough();

/** `GET /preview/path/text?path&username`, `/preview/path/text/stream`: a file of one's own by path. */
export const previewPathQuery = z
  .object({
    path: treePath,
    username: z.string().max(255).optional(),
    fileName: z.string().max(1024).optional(),
  })
  .passthrough();

/** The visitors' twins: the share's own names and the file in it. */
export const publicPreviewQuery = publicShareQuery.extend({
  id: z.string().max(128).optional(),
  fileId: z.string().max(128).optional(),
  path: treePath.optional(),
});

/** A file's text: the document of `/preview/text` (FileDocument). */
export const textDocument = z.object({
  id: z.string(),
  name: z.string(),
  /** The parent folder, `/a/b/` (relative to the shared folder for a visitor). */
  path: z.string(),
  size: z.number(),
  contentType: z.string(),
  suffix: z.string(),
  updateDate: z.string(),
  /** The text, decoded from `decoder`; at most TEXT_PREVIEW_MAX_BYTES of the file. */
  contentText: z.string(),
  /** The charset the bytes were read in: `UTF-8`, `GB18030`, `Shift_JIS`… */
  decoder: z.string(),
  /** The text stops before the end of the file. */
  truncated: z.boolean(),
});
export type TextDocument = z.infer<typeof textDocument>;

/** `GET/PUT /cloud/setting/preview/config`: suffix lists mapped to viewer addresses (JSON5). */
export const previewConfig = z.object({ iframe: z.string() });
export const previewConfigBody = z.object({
  iframe: z.string().max(PREVIEW_CONFIG_MAX_CHARS),
});
export type PreviewConfig = z.infer<typeof previewConfig>;

/** The viewers of the file kinds the drive does not show itself (administrators). */
export const previewConfigApi = {
  config: endpoint({
    method: 'GET',
    path: '/cloud/setting/preview/config',
    answer: previewConfig,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  setConfig: endpoint({
    method: 'PUT',
    path: '/cloud/setting/preview/config',
    body: previewConfigBody,
    answer: previewConfig,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
};

/** `GET /preview/archive?id`, `/public/s/preview/archive`: an archive's entries, unextracted. */
export const archiveQuery = z.object({ id }).passthrough();
export const publicArchiveQuery = publicPreviewQuery;

/** One entry of an archive; folders the archive only implies are listed too. */
export const archiveEntry = z.object({
  /** The entry's path inside the archive, without a leading or trailing slash: `a/b/c.txt`. */
  path: z.string(),
  name: z.string(),
  isFolder: z.boolean(),
  /** Bytes once extracted; 0 for folders. */
  size: z.number(),
  /** `yyyy-MM-dd HH:mm:ss`, or '' when the archive does not say. */
  updateDate: z.string(),
});
export type ArchiveEntry = z.infer<typeof archiveEntry>;

export const archiveListing = z.object({
  kind: z.enum(['zip', 'tar', 'tgz', '7z', 'rar']),
  entries: z.array(archiveEntry),
  /** More entries than ARCHIVE_LISTING_MAX_ENTRIES: the rest are not listed. */
  truncated: z.boolean(),
});
export type ArchiveListing = z.infer<typeof archiveListing>;

/**
 * A file's text for the previewer and the editors: by id, or by path among one's own (and a
 * mounter's) files; the `stream` variants send all its bytes as UTF-8 text (the charset it
 * came in in `x-text-decoder`), the others a head of it in the envelope.
 */
export const previewApi = {
  text: endpoint({
    method: 'GET',
    path: '/preview/text',
    query: previewTextQuery,
    answer: textDocument,
    access: 'user',
  }),
  textStream: endpoint({
    method: 'GET',
    path: '/preview/text/stream',
    query: previewTextQuery,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  }),
  pathText: endpoint({
    method: 'GET',
    path: '/preview/path/text',
    query: previewPathQuery,
    answer: textDocument,
    access: 'user',
  }),
  pathTextStream: endpoint({
    method: 'GET',
    path: '/preview/path/text/stream',
    query: previewPathQuery,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  }),
  /** What an archive holds, read without extracting it. */
  archive: endpoint({
    method: 'GET',
    path: '/preview/archive',
    query: archiveQuery,
    answer: archiveListing,
    access: 'user',
  }),
};
