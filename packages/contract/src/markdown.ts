import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { savedContent } from './history.ts';
import { clientText } from './validation.ts';

// The document editors' API (API-NOTES §1.6, §1.9; spec §7 Markdown): reading a document with
// the version it is at, and saving it from that version.

const id = z.string().max(64);
/** A path field: one its sender encoded itself is decoded (clientText). */
const treePath = clientText(z.string().max(4096));

/** The most text one save carries. */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/** The most text a draft keeps: drafts live in the database, documents in the store. */
export const MAX_DRAFT_BYTES = 2 * 1024 * 1024;
/**
 * A person keeps at most this many drafts, holding at most DRAFTS_MAX_CHARS characters in all:
 * beyond, the drafts left longest untouched are forgotten (the newest always stays).
 */
export const DRAFTS_PER_USER = 50;
export const DRAFTS_MAX_CHARS = 16 * 1024 * 1024;

/** An editor's text that was never saved (kept while editing), by the person opening it. */
export const documentDraft = z.object({
  contentText: z.string(),
  /** The version of the file the draft was written from. */
  baseHash: z.string().nullable(),
  updateDate: z.string(),
});
export type DocumentDraft = z.infer<typeof documentDraft>;

/** A text document as an editor opens it: its text and the version (`hash`) it is at. */
export const documentView = z.object({
  id: z.string(),
  name: z.string(),
  path: z.string(),
  contentText: z.string(),
  hash: z.string().nullable(),
  size: z.number(),
  updateDate: z.string(),
  /** This person's unsaved draft of it, if one was kept. */
  draft: documentDraft.nullable(),
});
export type DocumentView = z.infer<typeof documentView>;

export const documentQuery = z.object({ fileId: id });
export const draftQuery = z.object({ fileId: id, username: z.string().max(255).optional() });

const contentText = z
  .string()
  .max(MAX_DOCUMENT_BYTES, `the document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB`);
const saveRules = {
  contentText,
  /** The version the editor started from; a save over any other version is refused. */
  baseHash: z.string().max(128).nullable().optional(),
  /** Save over whatever is there; what is there is kept as a version. */
  force: z.boolean().optional(),
  /** Keep the text as this person's draft of the file; the file is left as it is. */
  draft: z.boolean().optional(),
};

/** `POST /markdown/edit`: save a file by id, or (without `fileId`) make a new one. */
export const documentSaveBody = z.object({
  fileId: id.optional(),
  filename: clientText(z.string().max(1024)).optional(),
  currentDirectory: treePath.optional(),
  userId: z.string().max(64).optional(),
  username: z.string().max(255).optional(),
  ...saveRules,
});
export type DocumentSaveBody = z.infer<typeof documentSaveBody>;

/** `POST /markdown/edit1`: save a file by its path. */
export const documentSaveByPathBody = z.object({
  relativePath: treePath,
  userId: z.string().max(64).optional(),
  username: z.string().max(255).optional(),
  mountFileId: z.string().max(64).optional(),
  ...saveRules,
});
export type DocumentSaveByPathBody = z.infer<typeof documentSaveByPathBody>;

/** One image stored beside a markdown document. */
export const markdownImage = z.object({
  url: z.string(),
  originalURL: z.string().optional(),
  fileId: z.string(),
  filename: z.string(),
  filepath: z.string(),
});
export type MarkdownImage = z.infer<typeof markdownImage>;

export const markdownLinkImageBody = z.object({
  url: z.string().max(4096),
  fileId: id.optional(),
  currentDirectory: treePath.optional(),
});

/** Where an uploaded image goes: beside the document (`fileId`), or in `currentDirectory`. */
export const markdownImageTarget = z.object({
  fileId: id.optional(),
  currentDirectory: treePath.optional(),
});
export type MarkdownImageTarget = z.infer<typeof markdownImageTarget>;

/** The folder beside a document that holds its images. */
export const MARKDOWN_ASSETS = 'assets';
/** Largest image stored for a document, uploaded or fetched. */
export const MAX_MARKDOWN_IMAGE_BYTES = 20 * 1024 * 1024;
/** Images one upload may carry. */
export const MAX_MARKDOWN_IMAGES = 20;

/** What one save may send: the largest document as JSON, escapes included. */
export const SAVE_BODY_LIMIT = 24 * 1024 * 1024;

/** The document editors: reading a document and saving it (API-NOTES §1.6, §1.9). */
export const markdownApi = {
  /** A document's text and the version it is at (and this person's draft of it). */
  document: endpoint({
    method: 'GET',
    path: '/markdown/p',
    query: documentQuery,
    answer: documentView,
    access: 'user',
  }),
  /** Saves a document by id, or (without `fileId`) makes a new one; or keeps a draft. */
  save: endpoint({
    method: 'POST',
    path: '/markdown/edit',
    body: documentSaveBody,
    answer: savedContent,
    access: 'user',
    bodyLimit: SAVE_BODY_LIMIT,
  }),
  /** Saves a document by its path. */
  saveAt: endpoint({
    method: 'POST',
    path: '/markdown/edit1',
    body: documentSaveByPathBody,
    answer: savedContent,
    access: 'user',
    bodyLimit: SAVE_BODY_LIMIT,
  }),
  /** Forgets this person's draft of a document. */
  dropDraft: endpoint({
    method: 'DELETE',
    path: '/markdown/deleteDraft',
    query: draftQuery,
    answer: null,
    access: 'user',
  }),
  /**
   * Images stored beside a document: a multipart form whose fields (`fileId` or
   * `currentDirectory`) come before its files (`files`).
   */
  addImages: endpoint({
    method: 'POST',
    path: '/upload-markdown-image',
    answer: z.array(markdownImage),
    access: 'user',
    multipart: true,
  }),
  /**
   * An image from a web address, fetched by the server: the editor names the document in the
   * address, the body carries the image's address.
   */
  importImage: endpoint({
    method: 'POST',
    path: '/upload-markdown-link-image',
    query: markdownImageTarget,
    body: markdownLinkImageBody,
    answer: markdownImage,
    access: 'user',
  }),
};
