import { z } from 'zod';

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

/** The drive's public record: its name, logo and version, shown before sign-in. */
export const websiteRecord = z.object({
  netdiskName: z.string(),
  netdiskLogo: z.string().nullable(),
  version: z.string(),
});
export type WebsiteRecord = z.infer<typeof websiteRecord>;
