import { z } from 'zod';
import { MAX_IDS_PER_REQUEST, MAX_LIST_PAGE_SIZE, TOKEN_HEADER } from './constants.ts';
import { endpoint } from './endpoint.ts';
import { musicTags } from './media.ts';
import { mountRef } from './share.ts';
import { tagItem } from './tags.ts';
import { clientText, flag, listField, queryNumber } from './validation.ts';

// The file tree's API (API-NOTES §1.3–§1.5, §1.12): the shapes of a file, of the results of
// moving, copying and restoring, and every query and body the files routes read.

/** Ids are UUIDs; a little room for the ids of older clients. */
const id = z.string().max(64);
/** A path of the tree, `/a/b/c.txt`: each name is checked by the server's name rules. */
const rawPath = z.string().max(4096);
/** A path as a query or body field: one its sender encoded itself is decoded (clientText). */
const treePath = clientText(rawPath);
/**
 * A name as a person typed it. The server's name rules (`checkName`) say what is wrong with it
 * in their own words; this bound only keeps the request small.
 */
const typedName = clientText(z.string().max(4096));

/** Ids in a query string: repeated keys (`a=1&a=2`) or comma-joined (`a=1,2`). */
export const fileIdList = () => listField(MAX_IDS_PER_REQUEST, 64);
/**
 * Ids in a JSON body: a query string holds only a few hundred before the HTTP header limit, and
 * a selection of a whole folder can hold 100,000.
 */
export const fileIdArray = z.array(id).max(MAX_IDS_PER_REQUEST);

// ---- answers --------------------------------------------------------------------------------

/** A permanent share "expires" at this moment: past the original client's own mark of forever. */
export const SHARE_NEVER_EXPIRES = Number.MAX_SAFE_INTEGER;

/**
 * Whether an item is shared, set by the drive's listings (`/list`, `/search-file-open`,
 * `/search-file`): `isShare` always there; the rest only on shared items, the settings being
 * those in force (the outermost shared folder's).
 */
const itemShareFields = {
  isShare: z.boolean().optional(),
  /** The item's own share, not one of a folder above it. */
  shareBase: z.boolean().optional(),
  /** The item has its own share inside a shared folder (whose settings apply). */
  subShare: z.boolean().optional(),
  isPrivacy: z.boolean().optional(),
  /** Epoch milliseconds; SHARE_NEVER_EXPIRES for a permanent share. */
  expiresAt: z.number().optional(),
};
export const itemShareFacts = z.object(itemShareFields);
export type ItemShareFacts = z.infer<typeof itemShareFacts>;

/** A file or folder as the API shows it (FileIntroVO of API-NOTES §1.3). */
export const fileItem = z.object({
  id: z.string(),
  name: z.string(),
  /** The parent folder: `/` or `/a/b/`. */
  path: z.string(),
  isFolder: z.boolean(),
  size: z.number(),
  contentType: z.string(),
  suffix: z.string(),
  /** folder | image | video | audio | document | text | archive | other */
  type: z.string(),
  hash: z.string().nullable(),
  /** `yyyy-MM-dd HH:mm:ss` */
  uploadDate: z.string(),
  updateDate: z.string(),
  isFavorite: z.boolean(),
  childrenCount: z.number(),
  userId: z.string(),
  /** Set on items in the trash. */
  trashDate: z.string().optional(),
  /**
   * Audio files with a cover picture: the song's tags (spec §3 File: music), and `name`, the
   * song's name, by which the original client asks for the cover. A song without a cover has
   * none here (that client would ask for a cover that is not there); /media/info has its tags.
   */
  music: musicTags.extend({ name: z.string() }).optional(),
  /**
   * Milliseconds since the item last changed (the original's `agoTime`): the original client
   * writes "3 minutes ago" from it.
   */
  agoTime: z.number(),
  /** Set on a mount listed in its folder: someone's shared folder placed here. */
  mount: mountRef.optional(),
  /** The owner's tags on the item, in the order of their tag list (set by the drive's listings). */
  tags: z.array(tagItem).optional(),
  ...itemShareFields,
});
export type FileItem = z.infer<typeof fileItem>;

export const fileList = z.array(fileItem);

/**
 * What the used space of a drive is made of (GET /space): the files of the tree (the root's
 * size), the earlier versions kept of documents, and the trash. `used` (the quota bar's figure,
 * `takeUpSpace`) is their sum; `quota` is in bytes.
 */
export const spaceUse = z.object({
  used: z.number(),
  quota: z.number(),
  files: z.number(),
  versions: z.number(),
  trash: z.number(),
});
export type SpaceUse = z.infer<typeof spaceUse>;

export const FILE_OPERATIONS = ['move', 'copy', 'rename', 'delete', 'restore'] as const;
export type FileOperation = (typeof FILE_OPERATIONS)[number];

/** One result of a move, copy, rename or restore (also the `operationFile` event's body). */
export const operationResult = z.object({
  operation: z.enum(FILE_OPERATIONS),
  from: z.string(),
  to: z.string(),
  /** 0 done, -2 nothing to do (already there), -1 refused: `msg` says why. */
  code: z.number().int(),
  msg: z.string(),
});
export type OperationResult = z.infer<typeof operationResult>;

export const operationResults = z.array(operationResult);

/** A background task of the task list, started by the request. */
export const startedTask = z.object({ taskId: z.string() });

/** A copy answers its results, or (a large tree) the task that copies in the background. */
export const copyAnswer = z.union([operationResults, startedTask]);
export type CopyAnswer = z.infer<typeof copyAnswer>;

/** Whether the chosen items may be downloaded (always directly from this server). */
export const downloadPermit = z.object({
  allowDownload: z.boolean(),
  isRedirect: z.boolean(),
  redirectUrl: z.string().nullable(),
});

/** The index rebuild of the whole drive: one task per user. */
export const startedTasks = z.object({ taskIds: z.array(z.string()) });

/** How far the user's index rebuild has come (100 when none is running). */
export const syncProgress = z.object({
  syncPercent: z.number(),
  indexingPercent: z.number(),
  running: z.boolean(),
});

// ---- requests -------------------------------------------------------------------------------

/** `true`, `'true'` or `'1'` are true, anything else false; absent or empty: not given. */
const optionalFlag = () =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : v === true || v === 'true' || v === '1'),
    z.boolean().optional(),
  );

export const SORT_PROPS = ['name', 'size', 'updateDate', 'uploadDate'] as const;
export const SORT_ORDERS = ['ascending', 'descending'] as const;

/** GET /list: a folder (by path or id) or a drive-wide view, a page of it. */
export const listQuery = z.object({
  currentDirectory: treePath.optional(),
  folder: id.optional(),
  queryFileType: z.string().max(16).optional(),
  // an unknown sort falls back to the view's own
  sortableProp: z.enum(SORT_PROPS).optional().catch(undefined),
  order: z.enum(SORT_ORDERS).optional().catch(undefined),
  isFolder: optionalFlag(),
  isFavorite: optionalFlag(),
  /** The mounted folders, wherever they sit (the original client's mount view). */
  isMount: optionalFlag(),
  tagId: id.optional(),
  /**
   * The original client's description of its view, as JSON text: `{"recently": true}` asks for
   * the recently view. Anything else in it is not read, and text that is no such object is
   * as if not sent.
   */
  queryCondition: z
    .preprocess(
      (v) => {
        if (typeof v !== 'string') return v;
        try {
          return JSON.parse(v) as unknown;
        } catch {
          return undefined;
        }
      },
      z.object({ recently: optionalFlag() }).optional(),
    )
    .catch(undefined),
  pageIndex: queryNumber(z.number().int().min(1)).default(1),
  pageSize: queryNumber(z.number().int().min(1).max(MAX_LIST_PAGE_SIZE)).default(50),
});

/** GET /search-file-open: the folder of a search result, by its id. */
export const openFolderQuery = listQuery.extend({ id: id.optional() });

export const fileIdQuery = z.object({ id });
export const folderTreeQuery = z.object({ fileId: id.optional() });

/** GET /listfiles, /upper-level-list: a folder by its path, or the one above it. */
export const pathListingQuery = z.object({
  path: treePath.optional(),
  pageSize: queryNumber(z.number().int().min(1).max(1000)).default(500),
});

export const newFolderQuery = z.object({
  filename: typedName.optional(),
  currentDirectory: treePath.optional(),
  folder: id.optional(),
});

export const addFileQuery = z.object({
  fileName: typedName.optional(),
  parentPath: treePath.optional(),
  folder: id.optional(),
});

export const renameQuery = z.object({ id, newFileName: typedName.optional() });
export const renamePathQuery = z.object({ path: treePath, newFileName: typedName.optional() });
export const pathQuery = z.object({ path: treePath });

/** Move, copy and their check, as the original client's GET. */
export const moveQuery = z.object({
  froms: fileIdList(),
  to: id.default('0'),
  isOverride: flag().default(false),
});
/** The same with the ids in a JSON body, for long selections. */
export const moveBody = z.object({
  froms: fileIdArray,
  to: id.default('0'),
  isOverride: z.boolean().default(false),
});
export type MoveRequest = z.infer<typeof moveBody>;

export const duplicateQuery = z.object({ fileId: id, newFilename: typedName.optional() });

export const fileIdsQuery = z.object({ fileIds: fileIdList() });
/** DELETE /delete: to the trash, or with `sweep` for good. */
export const deleteQuery = z.object({ fileIds: fileIdList(), sweep: flag().default(false) });
/** `{ fileIds: [...] }`, beside or instead of `fileIds` in the query (no body: null). */
export const fileIdsBody = z.object({ fileIds: fileIdArray.default([]) }).nullish();

export const unzipQuery = z.object({ fileId: id, destFileId: id.optional() });

/** `/file/{user}/{path}`: the owner's own bytes by path. */
export const ownFileParams = z.object({ username: z.string().max(255), '*': rawPath });
/** `/pre-file/{id}/{name}`: bytes by id (the name is for the browser). */
export const fileByIdParams = z.object({ id, name: z.string().max(4096) });

/** The byte routes: `o=download` asks for a download rather than a preview. */
export const bytesQuery = z.object({ o: z.string().max(64).optional() }).passthrough();

const CHOOSE_ONE = 'Choose at least one file';
/** At least one id, in the query string. */
const chosenIds = () => fileIdList().pipe(z.array(z.string()).min(1, CHOOSE_ONE));
export const chosenIdsQuery = z.object({ fileIds: chosenIds() });
export const chosenIdsBody = z.object({ fileIds: fileIdArray.min(1, CHOOSE_ONE) });
/** A zip of a long selection: the browser posts a form with the ids and the token. */
export const packageDownloadForm = z.object({
  fileIds: chosenIds(),
  [TOKEN_HEADER]: z.string().max(512).optional(),
});

/** GET /user/setting/sync: one folder of one's own tree, by id or path. */
export const syncFolderQuery = z.object({ path: treePath.optional(), folder: id.optional() });

/**
 * Index rebuilds and folder sizes (spec §1 General settings, API-NOTES §1.12). Their GETs start
 * work: not for tokens that only read.
 */
export const syncApi = {
  /** The whole drive: every user's tree (administrators). */
  rebuildAll: endpoint({
    method: 'GET',
    path: '/cloud/setting/sync',
    answer: startedTasks,
    access: 'user',
    authority: 'cloud:set:sync',
    changes: true,
  }),
  /** One folder of one's own tree. */
  rebuildFolder: endpoint({
    method: 'GET',
    path: '/user/setting/sync',
    query: syncFolderQuery,
    answer: startedTask,
    access: 'user',
    changes: true,
  }),
  /** How far one's index rebuilds have come. */
  progress: endpoint({
    method: 'GET',
    path: '/user/setting/isSync',
    answer: syncProgress,
    access: 'user',
  }),
  recalculateFolderSizes: endpoint({
    method: 'GET',
    path: '/cloud/setting/recalculateFolderSize',
    answer: startedTask,
    access: 'user',
    authority: 'cloud:set:sync',
    changes: true,
  }),
};

// ---- endpoints ------------------------------------------------------------------------------

/** The file tree (API-NOTES §1.3–§1.5): listings, new items, rename, move, copy, the trash. */
export const filesApi = {
  /** What the used space of the drive is made of. */
  space: endpoint({ method: 'GET', path: '/space', answer: spaceUse, access: 'user' }),
  /** A page of a folder (by path or id) or of a drive-wide view; `count` is the total. */
  list: endpoint({
    method: 'GET',
    path: '/list',
    query: listQuery,
    answer: fileList,
    access: 'user',
  }),
  /** A page of the folder of a search result, by its id (mounts listed too). */
  openFolder: endpoint({
    method: 'GET',
    path: '/search-file-open',
    query: openFolderQuery,
    answer: fileList,
    access: 'user',
  }),
  /** One item, by id. */
  info: endpoint({
    method: 'GET',
    path: '/file_info',
    query: fileIdQuery,
    answer: fileItem,
    access: 'user',
  }),
  /** The folders in a folder (`fileId`, the root when left out): the folder trees. */
  folderTree: endpoint({
    method: 'GET',
    path: '/query-file-tree',
    query: folderTreeQuery,
    answer: fileList,
    access: 'user',
  }),
  /** A folder by its path. */
  listPath: endpoint({
    method: 'GET',
    path: '/listfiles',
    query: pathListingQuery,
    answer: fileList,
    access: 'user',
  }),
  /** The folder above a path. */
  listAbove: endpoint({
    method: 'GET',
    path: '/upper-level-list',
    query: pathListingQuery,
    answer: fileList,
    access: 'user',
  }),
  /** A new folder. */
  newFolder: endpoint({
    method: 'POST',
    path: '/new_folder',
    query: newFolderQuery,
    answer: fileItem,
    access: 'user',
  }),
  /** A new empty file. */
  addFile: endpoint({
    method: 'POST',
    path: '/addfile',
    query: addFileQuery,
    answer: fileItem,
    access: 'user',
  }),
  /** A new name for an item, by id (the original client's GET). */
  rename: endpoint({
    method: 'GET',
    path: '/rename',
    query: renameQuery,
    answer: fileItem,
    access: 'user',
    changes: true,
  }),
  /** A new name for an item, by path. */
  renameAt: endpoint({
    method: 'GET',
    path: '/rename/path',
    query: renamePathQuery,
    answer: fileItem,
    access: 'user',
    changes: true,
  }),
  /** An item to the trash, by path. */
  trashAt: endpoint({
    method: 'DELETE',
    path: '/delFile',
    query: pathQuery,
    answer: null,
    access: 'user',
  }),
  /** The items a move or copy would replace (the original client's GET). */
  conflicts: endpoint({
    method: 'GET',
    path: '/check-move-copy',
    query: moveQuery,
    answer: fileList,
    access: 'user',
  }),
  /** The same, the ids in a JSON body for long selections. */
  conflictsOf: endpoint({
    method: 'POST',
    path: '/check-move-copy',
    body: moveBody,
    answer: fileList,
    access: 'user',
    readsOnly: true,
  }),
  /** Moves items into a folder (the original client's GET). */
  moveByQuery: endpoint({
    method: 'GET',
    path: '/move',
    query: moveQuery,
    answer: operationResults,
    access: 'user',
    changes: true,
  }),
  /** Moves items into a folder, the ids in a JSON body. */
  move: endpoint({
    method: 'POST',
    path: '/move',
    body: moveBody,
    answer: operationResults,
    access: 'user',
  }),
  /** Copies items into a folder (the original client's GET). */
  copyByQuery: endpoint({
    method: 'GET',
    path: '/copy',
    query: moveQuery,
    answer: copyAnswer,
    access: 'user',
    changes: true,
  }),
  /** Copies items into a folder, the ids in a JSON body; a big tree copies in the background. */
  copy: endpoint({
    method: 'POST',
    path: '/copy',
    body: moveBody,
    answer: copyAnswer,
    access: 'user',
  }),
  /** A copy of a file beside it. */
  duplicate: endpoint({
    method: 'GET',
    path: '/duplicate',
    query: duplicateQuery,
    answer: fileItem,
    access: 'user',
    changes: true,
  }),
  /** Items to the trash, or with `sweep` deleted for good; ids in the query or the body. */
  remove: endpoint({
    method: 'DELETE',
    path: '/delete',
    query: deleteQuery,
    body: fileIdsBody,
    answer: null,
    access: 'user',
  }),
  /** Items back from the trash. */
  restore: endpoint({
    method: 'POST',
    path: '/restore',
    query: fileIdsQuery,
    body: fileIdsBody,
    answer: operationResults,
    access: 'user',
  }),
  /** Items in the trash deleted for good. */
  sweep: endpoint({
    method: 'DELETE',
    path: '/sweep',
    query: fileIdsQuery,
    body: fileIdsBody,
    answer: null,
    access: 'user',
  }),
  /** The trash emptied. */
  clearTrash: endpoint({ method: 'DELETE', path: '/clear-trash', answer: null, access: 'user' }),
  /** An archive extracted into a new folder beside it (or into `destFileId`). */
  unzip: endpoint({
    method: 'GET',
    path: '/unzip',
    query: unzipQuery,
    answer: fileItem,
    access: 'user',
    changes: true,
  }),
  /** Items marked as favourites. */
  favorite: endpoint({
    method: 'POST',
    path: '/favorite',
    query: fileIdsQuery,
    body: fileIdsBody,
    answer: null,
    access: 'user',
  }),
  /** Items no longer favourites. */
  unFavorite: endpoint({
    method: 'POST',
    path: '/unFavorite',
    query: fileIdsQuery,
    body: fileIdsBody,
    answer: null,
    access: 'user',
  }),
};

/** Bytes of files (by path, by id) and zips of a selection (API-NOTES §1.6). */
export const downloadApi = {
  /** `/file/{user}/{path}`: the owner's own bytes by path. */
  ownFile: endpoint({
    method: 'GET',
    path: '/file/:username/*',
    params: ownFileParams,
    query: bytesQuery,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  }),
  /** `/pre-file/{id}/{name}`: bytes by id, of one's own files or of files in a mounted share. */
  fileById: endpoint({
    method: 'GET',
    path: '/pre-file/:id/:name',
    params: fileByIdParams,
    query: bytesQuery,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  }),
  /** Whether the chosen items may be downloaded. */
  isAllowDownload: endpoint({
    method: 'GET',
    path: '/isAllowDownload',
    query: chosenIdsQuery,
    answer: downloadPermit,
    access: 'user',
  }),
  /** Whether the chosen items may be downloaded as a zip. */
  isAllowPackageDownload: endpoint({
    method: 'GET',
    path: '/isAllowPackageDownload',
    query: chosenIdsQuery,
    answer: downloadPermit,
    access: 'user',
  }),
  /** The same for a selection too long for a query string. */
  isAllowPackageDownloadOf: endpoint({
    method: 'POST',
    path: '/isAllowPackageDownload',
    body: chosenIdsBody,
    answer: downloadPermit,
    access: 'user',
    readsOnly: true,
  }),
  /** A zip of the chosen items. */
  packageDownload: endpoint({
    method: 'GET',
    path: '/packageDownload',
    query: chosenIdsQuery,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  }),
  /** A zip of a long selection: the browser posts a form (ids and token), saves the answer. */
  packageDownloadForm: endpoint({
    method: 'POST',
    path: '/packageDownload',
    body: packageDownloadForm,
    answer: 'bytes',
    access: 'user',
    formAuth: true,
    readsOnly: true,
  }),
};

/** GET /events: the query the original client sends; the stream is always the caller's own. */
export const eventsQuery = z.object({
  username: z.string().max(64).optional(),
  /** The tab's own id, for the logs. */
  uuid: z.string().max(100).optional(),
});

/** The live stream of the drive's changes (spec §7, API-NOTES §2). */
export const eventsApi = {
  /**
   * Server-sent events. EventSource cannot send headers: the session cookie (or the token in
   * the query) signs it in.
   */
  stream: endpoint({
    method: 'GET',
    path: '/events',
    query: eventsQuery,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  }),
};
