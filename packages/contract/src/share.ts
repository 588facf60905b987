import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { clientText, listField, queryNumber } from './validation.ts';

/** What visitors of a private folder share may do besides reading (API-NOTES §1.7). */
export const SHARE_OPERATIONS = ['UPLOAD', 'PUT', 'DELETE'] as const;
export type ShareOperation = (typeof SHARE_OPERATIONS)[number];

/** Default lifetime the share dialog offers (API-NOTES §3: "30 days" default). */
export const DEFAULT_SHARE_DAYS = 30;
export const SHARE_CODE_LENGTH = 6;
export const SHORT_ID_MAX_LENGTH = 64;

/**
 * A custom short address: CJK characters, letters, digits, `_` and `-` (API-NOTES §3). It is a
 * single path segment of `/s/<address>`, so nothing else may appear in it.
 */
export const SHORT_ID_PATTERN =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}A-Za-z0-9_-]+$/u;

/** Share ids are UUIDs; a short address of that shape could shadow another share's id. */
export const SHARE_ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const shortIdSchema = z
  .string()
  .trim()
  .min(1, 'enter an address')
  .max(SHORT_ID_MAX_LENGTH, `the address is at most ${SHORT_ID_MAX_LENGTH} characters`)
  .regex(SHORT_ID_PATTERN, 'use only CJK characters, letters, digits, "_" and "-"')
  .refine((v) => !SHARE_ID_SHAPE.test(v), 'this address is reserved');

/** POST /share/generate (JSON body). `expireDate` null or absent with no `expireDays`: forever. */
export const generateShareBody = z.object({
  fileId: z.string().min(1).max(64),
  userId: z.string().max(64).optional(),
  isFolder: z.boolean().optional(),
  shortId: z.union([shortIdSchema, z.literal(''), z.null()]).optional(),
  /** `yyyy-MM-dd HH:mm:ss` (server time), epoch milliseconds, or null for a permanent share. */
  expireDate: z.union([z.string().max(32), z.number().int(), z.null()]).optional(),
  /** A lifetime in days from now; wins over `expireDate`. */
  expireDays: z.number().int().min(1).max(36500).optional(),
  isPrivacy: z.boolean().default(false),
  allowDownload: z.boolean().default(true),
  operationPermissionList: z.array(z.enum(SHARE_OPERATIONS)).max(3).optional(),
});
export type GenerateShareBody = z.input<typeof generateShareBody>;

export const validShareCodeBody = z.object({
  shareId: z.string().min(1).max(128),
  shareCode: z.string().max(64),
});

export const mountFolderBody = z.object({
  shareId: z.string().min(1).max(128),
  userId: z.string().max(64).optional(),
  /** The folder of the mounter's drive to mount into; "0" is the root. */
  fileId: z.string().max(64).default('0'),
  /** The name the mount gets there; the shared folder's name when absent. */
  name: z.string().max(255).optional(),
});

const shareOperation = z.enum(SHARE_OPERATIONS);

/** A share as its owner sees it (ShareDO of API-NOTES §1.7). */
export const shareView = z.object({
  /** The share's id (`shareId` again): the original client names a row of its Shares page by it. */
  id: z.string(),
  shareId: z.string(),
  shortId: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  /** The owner's full path of the shared item: `/a/b.txt`. */
  path: z.string(),
  isFolder: z.boolean(),
  contentType: z.string(),
  suffix: z.string(),
  isPrivacy: z.boolean(),
  /** The share code of a private share. */
  extractionCode: z.string().nullable(),
  /** `yyyy-MM-dd HH:mm:ss`, or null for a permanent share. */
  expireDate: z.string().nullable(),
  expiresAt: z.number().nullable(),
  expired: z.boolean(),
  allowDownload: z.boolean(),
  operationPermissionList: z.array(shareOperation),
  views: z.number(),
  downloads: z.number(),
  createDate: z.string(),
  /** Inside another shared folder: the settings shown are that share's. */
  subShare: z.boolean(),
  shareBase: z.boolean(),
  parentShareId: z.string().nullable(),
  /** The shared item is in the trash: visitors see a cancelled share until it is restored. */
  inTrash: z.boolean(),
});
export type ShareView = z.infer<typeof shareView>;

/** Who shared: the facts a visitor may see (public/get/sharer). */
export const sharer = z.object({
  shareId: z.string(),
  userId: z.string(),
  username: z.string(),
  showName: z.string(),
  /** Absent without one, as the logo (as the original). */
  avatar: z.string().optional(),
  netdiskName: z.string(),
  netdiskLogo: z.string().optional(),
});
export type Sharer = z.infer<typeof sharer>;

/** What any visitor learns about a share before (and after) entering its code. */
export const shareFacts = z.object({
  /** The share's id (`shareId` again), as the original's placeholder before the code gave. */
  id: z.string(),
  shareId: z.string(),
  shortId: z.string(),
  fileName: z.string(),
  isFolder: z.boolean(),
  isPrivacy: z.boolean(),
  expireDate: z.string().nullable(),
  expiresAt: z.number().nullable(),
  /** A private share whose code this visitor has not entered. */
  needCode: z.boolean(),
  sharer: sharer.pick({ username: true, showName: true, avatar: true }),
  /** Only once the share is open to this visitor. */
  allowDownload: z.boolean().optional(),
  operationPermissionList: z.array(shareOperation).optional(),
  /** The visitor is signed in and may mount this share (a folder of someone else's). */
  canMount: z.boolean().optional(),
  /** The signed-in visitor has already mounted this share. */
  mounted: z.boolean().optional(),
});
export type ShareFacts = z.infer<typeof shareFacts>;

/** A shared file or folder as a visitor sees it: its path is relative to the shared folder. */
export const publicFileView = z.object({
  id: z.string(),
  name: z.string(),
  /** The parent folder inside the share: `/` or `/a/b/`. */
  path: z.string(),
  isFolder: z.boolean(),
  size: z.number(),
  contentType: z.string(),
  suffix: z.string(),
  type: z.string(),
  uploadDate: z.string(),
  updateDate: z.string(),
  childrenCount: z.number(),
  contentText: z.string().optional(),
  /** The text was cut at the preview limit. */
  truncated: z.boolean().optional(),
  /** The share is private: the original client keeps the visitor's share token by this. */
  isPrivacy: z.boolean(),
  /** What visitors may do besides reading (empty but for a private folder share). */
  operationPermissionList: z.array(shareOperation),
});
export type PublicFileView = z.infer<typeof publicFileView>;

/**
 * A mount as it shows inline in the listing of the folder it was placed in (`GET /list`): the
 * entry is a folder whose `id` is the mount's id; it is browsed through its share.
 */
export const mountRef = z.object({
  mountId: z.string(),
  shareId: z.string(),
  /** The owner's shared folder. */
  fileId: z.string(),
  fileUsername: z.string(),
  fileShowName: z.string(),
});
export type MountRef = z.infer<typeof mountRef>;

/** One mounted folder in the mounter's drive (the /mount view). */
export const mountView = z.object({
  mountId: z.string(),
  shareId: z.string(),
  /** The owner's folder id: browse it with /public/access-share/open. */
  id: z.string(),
  name: z.string(),
  /** The mounter's folder the mount sits in: '0' is the root. */
  parentId: z.string(),
  /** Its path in the mounter's drive: `/` or `/a/b/`. */
  path: z.string(),
  isFolder: z.literal(true),
  fileUsername: z.string(),
  fileShowName: z.string(),
  operationPermissionList: z.array(shareOperation),
  allowDownload: z.boolean(),
  expireDate: z.string().nullable(),
  expired: z.boolean(),
  createDate: z.string(),
  updateDate: z.string(),
  type: z.literal('folder'),
  size: z.number(),
  childrenCount: z.number(),
  isMount: z.literal(true),
});
export type MountView = z.infer<typeof mountView>;

// ---- requests (API-NOTES §1.7) --------------------------------------------------------------

const shareIdField = z.string().min(1).max(128);
/** Share ids in a query string: repeated keys or comma-joined. */
const shareIdList = () => listField(1000, 128);

export const fileIdOfShareQuery = z.object({ fileId: shareIdField });
export const shareIdQuery = z.object({ shareId: shareIdField });
export const hasSubShareQuery = z.object({ shareIds: shareIdList() });
export const SHARE_SORT_PROPS = [
  'createDate',
  'expireDate',
  'fileName',
  'views',
  'downloads',
] as const;
export const shareListQuery = z.object({
  pageIndex: queryNumber(z.number().int().min(1)).default(1),
  pageSize: queryNumber(z.number().int().min(1).max(500)).default(20),
  sortableProp: z.enum(SHARE_SORT_PROPS).optional().catch(undefined),
  order: z.enum(['ascending', 'descending']).optional().catch(undefined),
});
export const shareCancelQuery = z.object({ shareId: shareIdList(), shareIds: shareIdList() });
export const mountIdQuery = z.object({ mountId: shareIdField });
export const mountFileInfoQuery = z.object({ fileId: shareIdField }).passthrough();
export const mountFolderIdQuery = z
  .object({ otherFileId: shareIdField, path: clientText(z.string().max(4096)).optional() })
  .passthrough();

// the visitors' routes (no sign-in): the share is named by `share` or `shareId`
const publicPage = {
  pageIndex: queryNumber(z.number().int().min(1)).default(1),
  pageSize: queryNumber(z.number().int().min(1).max(1000)).default(50),
  sortableProp: z.enum(['name', 'size', 'updateDate', 'uploadDate']).optional().catch(undefined),
  order: z.enum(['ascending', 'descending']).optional().catch(undefined),
};
const publicTarget = {
  fileId: z.string().max(128).optional(),
  id: z.string().max(128).optional(),
  path: clientText(z.string().max(4096)).optional(),
};
export const publicShareQuery = z
  .object({ share: z.string().max(128).optional(), shareId: z.string().max(128).optional() })
  .passthrough();
export const publicListQuery = publicShareQuery.extend(publicPage);
export const publicOpenQuery = publicShareQuery.extend({ ...publicPage, ...publicTarget });
export const publicTargetQuery = publicShareQuery.extend(publicTarget);
export const publicBytesQuery = publicShareQuery.extend({
  ...publicTarget,
  o: z.string().max(64).optional(),
});
export const publicFileIdsQuery = publicShareQuery.extend({ fileIds: shareIdList() });
export const publicNewFolderQuery = publicShareQuery.extend({
  filename: clientText(z.string().max(1024)),
  currentDirectory: clientText(z.string().max(4096)).optional(),
});
export const publicRenameQuery = publicShareQuery.extend({
  ...publicTarget,
  newFileName: clientText(z.string().max(1024)),
});

// ---- answers --------------------------------------------------------------------------------

/** The file's own share, or null (the shared folder around it rides in `props.parent`). */
export const shareOrNone = shareView.nullable();
export const shareList = z.array(shareView);
export const publicFileList = z.array(publicFileView);
/** A private share not yet open answers with its public facts instead of its listing. */
export const accessShareAnswer = z.union([publicFileList, shareFacts]);
export const mountList = z.array(mountView);
/** Where a mounted file sits in the mounter's drive. */
export const mountFileInfo = z.object({
  path: z.string(),
  folder: z.string(),
  mountId: z.string(),
  shareId: z.string(),
});

/** The owner's side of sharing, and mounts (signed in). */
export const shareApi = {
  /** A new share of a file or folder (or the same share again, with new settings). */
  generate: endpoint({
    method: 'POST',
    path: '/share/generate',
    body: generateShareBody,
    answer: shareView,
    access: 'user',
  }),
  /** A fresh signed token for one of the owner's shares (the link's second half). */
  token: endpoint({
    method: 'GET',
    path: '/share/generate/share-token',
    query: fileIdOfShareQuery,
    answer: z.string(),
    access: 'user',
    changes: true,
  }),
  /** One share, by id. */
  get: endpoint({
    method: 'GET',
    path: '/get/share',
    query: shareIdQuery,
    answer: shareView,
    access: 'user',
  }),
  /** A file's own share, or null; `props.parent` names the shared folder around it, if any. */
  byFile: endpoint({
    method: 'GET',
    path: '/get/share/by/fileId',
    query: fileIdOfShareQuery,
    answer: shareOrNone,
    access: 'user',
  }),
  /** Whether any of these shares has shares below it. */
  hasSubShare: endpoint({
    method: 'GET',
    path: '/share/has-sub-share',
    query: hasSubShareQuery,
    answer: z.boolean(),
    access: 'user',
  }),
  /** Whether a folder holds shared items. */
  folderHasShares: endpoint({
    method: 'GET',
    path: '/share/folder-sub-share',
    query: fileIdOfShareQuery,
    answer: z.boolean(),
    access: 'user',
  }),
  /** A page of the owner's shares. */
  list: endpoint({
    method: 'GET',
    path: '/share/list',
    query: shareListQuery,
    answer: shareList,
    access: 'user',
  }),
  /** Ends shares (`shareId` and `shareIds` both list them); answers how many ended. */
  cancel: endpoint({
    method: 'DELETE',
    path: '/share/cancel',
    query: shareCancelQuery,
    answer: z.number().int(),
    access: 'user',
  }),
  /** Places another person's shared folder in the drive. */
  mount: endpoint({
    method: 'PUT',
    path: '/share/mount-folder',
    body: mountFolderBody,
    answer: mountView,
    access: 'user',
  }),
  /** The folders placed in the drive from others' shares. */
  mounts: endpoint({ method: 'GET', path: '/mount/list', answer: mountList, access: 'user' }),
  /** Takes a placed folder out of the drive (the share stays). */
  unmount: endpoint({
    method: 'DELETE',
    path: '/mount/remove',
    query: mountIdQuery,
    answer: null,
    access: 'user',
  }),
  /** Where a mounted file sits in the mounter's drive. */
  mountFileInfo: endpoint({
    method: 'GET',
    path: '/mount/file_info',
    query: mountFileInfoQuery,
    answer: mountFileInfo,
    access: 'user',
  }),
  /** The id of a folder inside a mount, by its path there. */
  mountFolderId: endpoint({
    method: 'GET',
    path: '/mount/folder/id',
    query: mountFolderIdQuery,
    answer: z.string(),
    access: 'user',
  }),
};
