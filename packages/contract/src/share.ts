import { z } from 'zod';
import type { mountRef } from './files.ts';

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

/** A share as its owner sees it (ShareDO of API-NOTES §1.7). */
export interface ShareView {
  shareId: string;
  shortId: string;
  fileId: string;
  fileName: string;
  /** The owner's full path of the shared item: `/a/b.txt`. */
  path: string;
  isFolder: boolean;
  contentType: string;
  suffix: string;
  isPrivacy: boolean;
  /** The share code of a private share. */
  extractionCode: string | null;
  /** `yyyy-MM-dd HH:mm:ss`, or null for a permanent share. */
  expireDate: string | null;
  expiresAt: number | null;
  expired: boolean;
  allowDownload: boolean;
  operationPermissionList: ShareOperation[];
  views: number;
  downloads: number;
  createDate: string;
  /** Inside another shared folder: the settings shown are that share's. */
  subShare: boolean;
  shareBase: boolean;
  parentShareId: string | null;
  /** The shared item is in the trash: visitors see a cancelled share until it is restored. */
  inTrash: boolean;
}

/** Who shared: the facts a visitor may see (public/get/sharer). */
export interface Sharer {
  shareId: string;
  userId: string;
  username: string;
  showName: string;
  avatar: string | null;
  netdiskName: string;
  netdiskLogo: string | null;
}

/** What any visitor learns about a share before (and after) entering its code. */
export interface ShareFacts {
  shareId: string;
  shortId: string;
  fileName: string;
  isFolder: boolean;
  isPrivacy: boolean;
  expireDate: string | null;
  expiresAt: number | null;
  /** A private share whose code this visitor has not entered. */
  needCode: boolean;
  sharer: Pick<Sharer, 'username' | 'showName' | 'avatar'>;
  /** Only once the share is open to this visitor. */
  allowDownload?: boolean;
  operationPermissionList?: ShareOperation[];
  /** The visitor is signed in and may mount this share (a folder of someone else's). */
  canMount?: boolean;
  /** The signed-in visitor has already mounted this share. */
  mounted?: boolean;
}

/** A shared file or folder as a visitor sees it: its path is relative to the shared folder. */
export interface PublicFileView {
  id: string;
  name: string;
  /** The parent folder inside the share: `/` or `/a/b/`. */
  path: string;
  isFolder: boolean;
  size: number;
  contentType: string;
  suffix: string;
  type: string;
  uploadDate: string;
  updateDate: string;
  childrenCount: number;
  contentText?: string;
  /** The text was cut at the preview limit. */
  truncated?: boolean;
}

/** A mount as it shows inline in the listing of the folder it was placed in (files.ts). */
export type MountRef = z.infer<typeof mountRef>;

/** One mounted folder in the mounter's drive (the /mount view). */
export interface MountView {
  mountId: string;
  shareId: string;
  /** The owner's folder id: browse it with /public/access-share/open. */
  id: string;
  name: string;
  /** The mounter's folder the mount sits in: '0' is the root. */
  parentId: string;
  /** Its path in the mounter's drive: `/` or `/a/b/`. */
  path: string;
  isFolder: true;
  fileUsername: string;
  fileShowName: string;
  operationPermissionList: ShareOperation[];
  allowDownload: boolean;
  expireDate: string | null;
  expired: boolean;
  createDate: string;
  updateDate: string;
  type: 'folder';
  size: number;
  childrenCount: number;
  isMount: true;
}
