import { z } from 'zod';
import { LOGO_MAX_BYTES } from './constants.ts';
import { endpoint } from './endpoint.ts';

/** spec §5: the drive name is not empty and uses only Chinese characters, letters, digits and "_". */
export const DRIVE_NAME_MAX_LENGTH = 32;
export const DRIVE_NAME_PATTERN = /^[\p{Script=Han}A-Za-z0-9_]+$/u;

/** The one drive-name rule: the settings route and the web settings form both apply it. */
export const driveNameSchema = z
  .string()
  .trim()
  .min(1, 'enter a drive name')
  .max(DRIVE_NAME_MAX_LENGTH, 'the drive name is too long')
  .regex(DRIVE_NAME_PATTERN, 'use only Chinese characters, letters, digits and "_"');

export const driveNameQuery = z.object({ netdiskName: driveNameSchema });

/** spec §5: the disk logo is an SVG, JPG, JPEG or PNG image. */
export const LOGO_SUFFIXES = ['svg', 'jpg', 'jpeg', 'png'] as const;
/** The file picker's filter for a logo. */
export const LOGO_ACCEPT = LOGO_SUFFIXES.map((s) => `.${s}`).join(',');

/**
 * The one logo rule, by the file's name and size (spec §5: at most `LOGO_MAX_BYTES`): the
 * server refuses what it names, and the settings page says so before uploading.
 */
export function logoProblem(file: {
  name: string;
  size: number;
}): 'format' | 'empty' | 'size' | null {
  const dot = file.name.lastIndexOf('.');
  const suffix = dot < 0 ? '' : file.name.slice(dot + 1).toLowerCase();
  if (!(LOGO_SUFFIXES as readonly string[]).includes(suffix)) return 'format';
  if (file.size === 0) return 'empty';
  if (file.size > LOGO_MAX_BYTES) return 'size';
  return null;
}

/** The drive's public record: its name, logo and version, shown before sign-in. */
/** The most text the footer of the sign-in and share pages shows. */
export const FOOTER_TEXT_MAX = 300;
/** The bounds of the administrator's "versions kept per file". */
export const VERSIONS_PER_FILE_MAX = 500;
/**
 * The most days the administrator's retention settings take (ten years): trash items older than
 * `trashRetentionDays`, versions older than `versionRetentionDays` go; 0 keeps them (the default).
 */
export const RETENTION_DAYS_MAX = 3650;
const retentionDays = z.number().int().min(0).max(RETENTION_DAYS_MAX);

export const websiteRecord = z.object({
  netdiskName: z.string(),
  /** Absent without one (as the original: its client would ask for `/api/file/null`). */
  netdiskLogo: z.string().optional(),
  version: z.string(),
  /** A line under the sign-in and share pages (a record number, a notice): plain text. */
  footerText: z.string(),
});

/**
 * `GET /version/latest` (administrators): the version this server runs and the newest release its
 * update feed (NIMBUS_UPDATE_FEED) announced.
 */
export const versionStatus = z.object({
  currentVersion: z.string(),
  /** The feed announced a newer version than this one. */
  newVersion: z.boolean(),
  /** An update feed is configured; without one the server never checks. */
  updateChecks: z.boolean(),
  /** Absent until the feed has answered. */
  latestVersion: z.string().optional(),
  /** The page of the latest release (http or https). */
  latestUrl: z.string().optional(),
});
export type VersionStatus = z.infer<typeof versionStatus>;

/** `GET /website/setting`: what the administrator sets of the drive's public face and upkeep. */
/**
 * `GET /website/setting/dynamic-address`: the original's dynamic-DNS address. Nimbus keeps none
 * (a reverse proxy or the router does that), so it is always off.
 */
export const dynamicAddress = z.object({ enabled: z.boolean(), domain: z.string() });

export const websiteSetting = z.object({
  netdiskName: z.string(),
  /** Absent without one (as the original: its client would ask for `/api/file/null`). */
  netdiskLogo: z.string().optional(),
  footerText: z.string(),
  versionsPerFile: z.number().int(),
  /** Trash items older than this many days go by themselves; 0: never (the default). */
  trashRetentionDays: z.number().int(),
  /** Versions older than this many days go (a file's newest always stays); 0: never. */
  versionRetentionDays: z.number().int(),
});
export type WebsiteSetting = z.infer<typeof websiteSetting>;

export const websiteSettingBody = z.object({
  footerText: z
    .string()
    .max(FOOTER_TEXT_MAX, `footerText: at most ${FOOTER_TEXT_MAX} characters`)
    .refine(
      (text) => [...text].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f),
      'footerText: one line of text',
    )
    .optional(),
  versionsPerFile: z
    .number()
    .int()
    .min(1, 'versionsPerFile: at least 1')
    .max(VERSIONS_PER_FILE_MAX, `versionsPerFile: at most ${VERSIONS_PER_FILE_MAX}`)
    .optional(),
  trashRetentionDays: retentionDays.optional(),
  versionRetentionDays: retentionDays.optional(),
});
export type WebsiteSettingBody = z.infer<typeof websiteSettingBody>;
export type WebsiteRecord = z.infer<typeof websiteRecord>;

/**
 * The drive's settings: its public record, its name and logo, and what the administrator sets
 * of its public face and upkeep.
 */
export const settingsApi = {
  /** The name, logo and version shown before sign-in. */
  record: endpoint({
    method: 'GET',
    path: '/public/website/record',
    answer: websiteRecord,
    access: 'public',
  }),
  /** The original client asks on every page; nothing to keep here (docs/API.md). */
  dynamicAddress: endpoint({
    method: 'GET',
    path: '/website/setting/dynamic-address',
    answer: dynamicAddress,
    access: 'user',
  }),
  website: endpoint({
    method: 'GET',
    path: '/website/setting',
    answer: websiteSetting,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  updateWebsite: endpoint({
    method: 'PUT',
    path: '/website/setting/update',
    body: websiteSettingBody,
    answer: websiteSetting,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  rename: endpoint({
    method: 'PUT',
    path: '/user/setting/update_netdisk_name',
    query: driveNameQuery,
    answer: null,
    access: 'user',
    authority: 'cloud:set:update',
  }),
  /** The disk logo, the form's one file `file`; answers the logo's address. */
  uploadLogo: endpoint({
    method: 'POST',
    path: '/user/setting/upload_logo',
    multipart: true,
    answer: z.string(),
    access: 'user',
    authority: 'cloud:set:update',
  }),
};

/** The server's health and version. */
export const healthApi = {
  /** Liveness, for load balancers: plain text "ok" once the database answers, else 503. */
  health: endpoint({ method: 'GET', path: '/public/health', answer: 'bytes', access: 'public' }),
  /** Readiness: the database answers and the store can write, else 503 naming what is not. */
  ready: endpoint({
    method: 'GET',
    path: '/public/ready',
    answer: z.literal('ready'),
    access: 'public',
  }),
  version: endpoint({ method: 'GET', path: '/version', answer: z.string(), access: 'public' }),
  /** This server's version and the newest release its update feed announced. */
  latestVersion: endpoint({
    method: 'GET',
    path: '/version/latest',
    answer: versionStatus,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
};
