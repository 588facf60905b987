import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { fileItem } from './files.ts';
import { publicFileView } from './share.ts';
import { clientText, queryNumber, wholeNumber } from './validation.ts';

// The chunked upload protocol (API-NOTES §1.4, spec §3 upload parameters): the same fields for
// the user's own drive (`/upload`, `/merge`…) and for a share's visitors (`/public/upload`…).

// names and paths are stored in NFC whatever form the client sent (macOS sends NFD); one its
// sender encoded itself is decoded (clientText)
const nameText = clientText(z.string().normalize('NFC').max(1024));
const pathText = clientText(z.string().normalize('NFC').max(4096));

/** The fields of one chunk (query string or multipart form fields). */
export const chunkParams = z.object({
  chunkNumber: wholeNumber(),
  chunkSize: wholeNumber(),
  currentChunkSize: wholeNumber(),
  totalSize: wholeNumber(),
  identifier: z.string().max(128),
  filename: nameText,
  relativePath: pathText.optional(),
  totalChunks: wholeNumber(),
  currentDirectory: pathText.optional(),
  folderPath: pathText.optional(),
  lastModified: queryNumber(z.number()).optional(),
});
export type ChunkParams = z.infer<typeof chunkParams>;

/**
 * The fields of a merge: a chunk's, without the chunk's own; `totalChunks` may be left out, and
 * `chunkSize` (the original client sends none: the upload's session has it).
 */
export const mergeParams = chunkParams
  .omit({ chunkNumber: true, currentChunkSize: true })
  .extend({ totalChunks: wholeNumber().optional(), chunkSize: wholeNumber().optional() });
export type MergeParams = z.infer<typeof mergeParams>;

export const chunkQuery = chunkParams.passthrough();
export const mergeQuery = mergeParams.passthrough();

export const checkExistBody = z
  .object({
    filenames: z.array(nameText).max(10_000).default([]),
    currentDirectory: pathText.optional(),
  })
  .passthrough();

/** One folder of a folder upload. */
export const uploadFolderQuery = z
  .object({
    filename: nameText,
    folderPath: pathText.optional(),
    currentDirectory: pathText.optional(),
  })
  .passthrough();

export const uploadSessionParams = z.object({ id: z.string().max(64) });

// ---- answers --------------------------------------------------------------------------------

/** What the server already has of a file (GET upload), and whether same-named files exist. */
export const chunkTestResult = z.object({
  /** The server already has the bytes: done without sending (instant upload). */
  pass: z.boolean(),
  exist: z.boolean(),
  /** Chunk numbers already on the server. */
  resume: z.array(z.number().int()),
  upload: z.boolean(),
  /** Every chunk is there: merge next. */
  merge: z.boolean(),
});
export type ChunkTestResult = z.infer<typeof chunkTestResult>;

/** checkExist: `exist` says whether a same-named item is there; a share's also `replace`. */
export const checkExistAnswer = chunkTestResult.extend({ replace: z.boolean().optional() });

/** GET upload in the user's own drive: with the file when it completed at once. */
export const ownChunkTest = chunkTestResult.extend({ file: fileItem.optional() });
/** GET upload into a share: the file as the visitor sees it. */
export const publicChunkTest = chunkTestResult.extend({ file: publicFileView.optional() });

/** POST upload: the chunk is stored; `merge` when every chunk is there. */
export const chunkResult = z.object({ upload: z.boolean(), merge: z.boolean() });
export type ChunkResult = z.infer<typeof chunkResult>;

/** A large file still merging in the background: ask again to follow it. */
export const stillMerging = z.object({
  upload: z.literal(true),
  merging: z.literal(true),
  /** 0..100 */
  progress: z.number(),
  taskId: z.string().optional(),
});
/** POST merge: the file, or a background merge still under way. */
export const ownMergeAnswer = z.union([
  stillMerging,
  z.object({ upload: z.literal(true), file: fileItem }),
]);
export const publicMergeAnswer = z.union([
  stillMerging,
  z.object({ upload: z.literal(true), file: publicFileView.optional() }),
]);
export type MergeAnswer = z.infer<typeof ownMergeAnswer>;
export type PublicMergeAnswer = z.infer<typeof publicMergeAnswer>;
export type StillMerging = z.infer<typeof stillMerging>;

/** An upload under way into the user's drive, as its owner sees it (list and cancel). */
export const uploadSessionView = z.object({
  id: z.string(),
  filename: z.string(),
  /** The folder the file goes to: `/a/b/`. */
  targetPath: z.string(),
  totalSize: z.number(),
  receivedBytes: z.number(),
  state: z.enum(['uploading', 'merging']),
  /** `owner`: the user, from any device; `visitor`: a visitor of one of the user's shares. */
  startedBy: z.enum(['owner', 'visitor']),
  share: z.object({ id: z.string(), name: z.string().nullable() }).optional(),
  visitorAddress: z.string().optional(),
  createdAt: z.string(),
  lastActivity: z.string(),
});
export type UploadSessionView = z.infer<typeof uploadSessionView>;
export const uploadSessionList = z.array(uploadSessionView);

// ---- endpoints ------------------------------------------------------------------------------

/** Uploads into the user's own drive (API-NOTES §1.4), and the uploads under way. */
export const uploadApi = {
  /** Whether items of these names are already in the folder. */
  checkExist: endpoint({
    method: 'POST',
    path: '/checkExist',
    body: checkExistBody,
    answer: checkExistAnswer,
    access: 'user',
    readsOnly: true,
  }),
  /** What the server already has of a file (instant upload, resume). */
  test: endpoint({
    method: 'GET',
    path: '/upload',
    query: chunkQuery,
    answer: ownChunkTest,
    access: 'user',
  }),
  /** One chunk, as a multipart form: its fields, then its bytes. */
  chunk: endpoint({
    method: 'POST',
    path: '/upload',
    answer: chunkResult,
    access: 'user',
    multipart: true,
  }),
  /** The chunks joined into the file; a large file may still be merging (ask again). */
  merge: endpoint({
    method: 'POST',
    path: '/merge',
    query: mergeQuery,
    answer: ownMergeAnswer,
    access: 'user',
  }),
  /** One folder of a folder upload. */
  folder: endpoint({
    method: 'POST',
    path: '/upload-folder',
    query: uploadFolderQuery,
    answer: fileItem,
    access: 'user',
  }),
  /** The uploads under way into the user's drive (their own and their shares' visitors'). */
  sessions: endpoint({
    method: 'GET',
    path: '/upload/sessions',
    answer: uploadSessionList,
    access: 'user',
  }),
  /** An upload under way, cancelled. */
  cancelSession: endpoint({
    method: 'DELETE',
    path: '/upload/sessions/:id',
    params: uploadSessionParams,
    answer: null,
    access: 'user',
  }),
};
