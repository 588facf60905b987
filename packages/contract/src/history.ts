import { z } from 'zod';
import { HISTORY_PAGE_SIZE } from './constants.ts';
import { endpoint } from './endpoint.ts';
import { clientText, queryNumber } from './validation.ts';

// Versions of a file (API-NOTES §1.8, spec §3 History version, §4 History list): every
// replacement of a text, markdown, mind-map or office file through Nimbus (an upload, a WebDAV
// PUT, a save, a restore, an office save) keeps what it replaced, one version each.

const id = z.string().max(64);
/** A path field: one its sender encoded itself is decoded (clientText). */
const treePath = clientText(z.string().max(4096));

/**
 * Versions kept per file unless the administrator says otherwise: retention. Beyond this many,
 * the oldest go, but only once they are older than VERSION_PRUNE_AFTER_MS.
 */
export const DEFAULT_VERSIONS_PER_FILE = 50;
/** A version younger than this is never pruned by the count (a burst of saves keeps each). */
export const VERSION_PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * What a file's history keeps (`GET /history/retention`, every signed-in user): the newest
 * `versionsPerFile` versions, and of those the ones younger than `versionRetentionDays` days
 * (0: no age limit); a file's newest version always stays.
 */
export const historyRetention = z.object({
  versionsPerFile: z.number().int(),
  versionRetentionDays: z.number().int(),
});
export type HistoryRetention = z.infer<typeof historyRetention>;

const paging = {
  pageIndex: queryNumber(z.number().int().min(1)).default(1),
  pageSize: queryNumber(z.number().int().min(1).max(100)).default(HISTORY_PAGE_SIZE),
};

export const historyListQuery = z.object({ fileId: id, ...paging });
export const historyPathListQuery = z.object({ path: treePath, ...paging });
export const historyVersionQuery = z.object({ id, fileId: id.optional() });

/** One version: what the file was before a save replaced it. */
export const historyVersion = z.object({
  id: z.string(),
  fileId: z.string(),
  filename: z.string(),
  /** Bytes of the content as it was. */
  length: z.number(),
  /** When the content was replaced, `yyyy-MM-dd HH:mm:ss`. */
  uploadDate: z.string(),
  metadata: z.object({
    filepath: z.string(),
    filename: z.string(),
    /** `uploadDate` again, `yyyy-MM-dd HH:mm:ss` (API-NOTES §1.0): the original client shows it. */
    time: z.string(),
    /** Who replaced it: a username, or `share:<link>` for a visitor of that share link. */
    operator: z.string(),
    size: z.number(),
    compression: z.string(),
  }),
});
export type HistoryVersion = z.infer<typeof historyVersion>;

/** A version's text (`/history/preview/text`). */
export const historyText = z.object({
  id: z.string(),
  filename: z.string(),
  contentText: z.string(),
  hash: z.string(),
});
export type HistoryText = z.infer<typeof historyText>;

/** What a file's content is after a save or a recovery: the editor's new baseline. */
export const savedContent = z.object({
  id: z.string(),
  hash: z.string(),
  size: z.number(),
  updateDate: z.string(),
});
export type SavedContent = z.infer<typeof savedContent>;

/** The current content a stale save met (data of a CHANGED_MEANWHILE answer). */
export const changedMeanwhile = z.object({
  hash: z.string().nullable(),
  updateDate: z.string(),
  size: z.number(),
});
export type ChangedMeanwhile = z.infer<typeof changedMeanwhile>;

/**
 * The operator of a version replaced by someone without an account, through a share link:
 * `share:` and the link's address (usernames never hold a colon).
 */
export const SHARE_VISITOR_OPERATOR = 'share:';

const versionPage = z.array(historyVersion);

/** Earlier versions of files (API-NOTES §1.8). */
export const historyApi = {
  /** A file's versions, newest first, a page at a time. */
  list: endpoint({
    method: 'GET',
    path: '/history/list',
    query: historyListQuery,
    answer: versionPage,
    access: 'user',
  }),
  /** The same, for the file at a path. */
  listAt: endpoint({
    method: 'GET',
    path: '/history/path/list',
    query: historyPathListQuery,
    answer: versionPage,
    access: 'user',
  }),
  /** What a file's history keeps (the administrator's retention settings). */
  retention: endpoint({
    method: 'GET',
    path: '/history/retention',
    answer: historyRetention,
    access: 'user',
  }),
  /** A version's text. */
  text: endpoint({
    method: 'GET',
    path: '/history/preview/text',
    query: historyVersionQuery,
    answer: historyText,
    access: 'user',
  }),
  /** A version's bytes as text, always a download. */
  textBytes: endpoint({
    method: 'GET',
    path: '/history/preview/text/stream',
    query: historyVersionQuery,
    answer: 'bytes',
    access: 'user',
  }),
  /**
   * A version's bytes, always a download, never shown inline from this origin (an OnlyOffice
   * document server fetches a version by a signed `/office/file` address instead).
   */
  file: endpoint({
    method: 'GET',
    path: '/history/preview/file',
    query: historyVersionQuery,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  }),
  /** Brings a version back; the current content becomes a version first. */
  recover: endpoint({
    method: 'PUT',
    path: '/history/recovery',
    query: historyVersionQuery,
    answer: savedContent,
    access: 'user',
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/history/delete',
    query: historyVersionQuery,
    answer: null,
    access: 'user',
  }),
};
