import { z } from 'zod';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  THEMES,
  USERNAME_MAX_LENGTH,
  USERNAME_PATTERN,
} from './constants.ts';
import type { TOKEN_HEADER } from './constants.ts';

export const usernameSchema = z
  .string()
  .trim()
  .regex(USERNAME_PATTERN, 'username may use letters, digits, "_", "-" and "." (at most 32)');

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** A password as typed to be checked (sign-in, current password): no longer than any can be. */
export const givenPasswordSchema = z
  .string()
  .max(PASSWORD_MAX_LENGTH, `password must be at most ${PASSWORD_MAX_LENGTH} characters`);

// every string has a bound, so no request can make the server store or hash megabytes
export const loginBody = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'enter a username')
    .max(USERNAME_MAX_LENGTH, `username must be at most ${USERNAME_MAX_LENGTH} characters`),
  password: passwordSchema,
  rememberMe: z.boolean().optional().default(false),
});
export type LoginBody = z.input<typeof loginBody>;

export interface LoginResult {
  [TOKEN_HEADER]?: string;
  userId?: string;
  username?: string;
  mfaRequired?: boolean;
  mfaToken?: string;
}

export const initializationBody = z.object({
  username: usernameSchema,
  password: passwordSchema,
});

export const themeSchema = z.enum(THEMES);
export const personalizationBody = z.object({ theme: themeSchema });
export type Personalization = z.infer<typeof personalizationBody>;

/** userInfo of spec §3 plus the fields API-NOTES §1.2 lists. */
export interface UserInfo {
  id: string;
  username: string;
  showName: string;
  avatar: string | null;
  slogan: string | null;
  introduction: string | null;
  roles: string[];
  quota: number; // GB
  takeUpSpace: number; // bytes
  creator: boolean;
  mfaEnabled: boolean;
  personalization: Personalization;
  createTime: string;
  netdiskName: string;
  netdiskLogo: string | null;
  iframe: string;
  exactSearch: boolean;
  newVersion: boolean;
  authorities: string[];
}
