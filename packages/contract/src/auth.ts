import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { flag } from './validation.ts';
import {
  ACCESS_TOKEN_NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  THEMES,
  TOKEN_HEADER,
  USERNAME_MAX_LENGTH,
  USERNAME_PATTERN,
} from './constants.ts';

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

/** The answer of a sign-in; the token also goes out as a cookie. */
export const loginResult = z.object({
  [TOKEN_HEADER]: z.string().optional(),
  userId: z.string().optional(),
  username: z.string().optional(),
  mfaRequired: z.boolean().optional(),
  /** The drive requires two-factor sign-in and this account has none yet: enrol first. */
  mfaForceEnable: z.boolean().optional(),
  mfaToken: z.string().optional(),
});
export type LoginResult = z.infer<typeof loginResult>;

export const initializationBody = z.object({
  username: usernameSchema,
  password: passwordSchema,
});

export const themeSchema = z.enum(THEMES);
export const personalizationBody = z.object({ theme: themeSchema });
export type Personalization = z.infer<typeof personalizationBody>;

/** The answer of the first run: the administrator it created. */
export const initializationResult = z.object({ userId: z.string(), username: z.string() });

/** userInfo of spec §3 plus the fields API-NOTES §1.2 lists. */
export const userInfo = z.object({
  id: z.string(),
  username: z.string(),
  showName: z.string(),
  /** The avatar's file id; absent without one (as the original: its client would ask for `null`). */
  avatar: z.string().optional(),
  slogan: z.string().nullable(),
  introduction: z.string().nullable(),
  roles: z.array(z.string()),
  quota: z.number(), // GB
  takeUpSpace: z.number(), // bytes
  creator: z.boolean(),
  mfaEnabled: z.boolean(),
  personalization: personalizationBody,
  createTime: z.string(),
  netdiskName: z.string(),
  /** The logo; absent without one (as the original). */
  netdiskLogo: z.string().optional(),
  iframe: z.string(),
  exactSearch: z.boolean(),
  newVersion: z.boolean(),
  authorities: z.array(z.string()),
});
export type UserInfo = z.infer<typeof userInfo>;

/**
 * What an access token may do, chosen when it is made: `read` reads (the API's reading routes,
 * WebDAV's PROPFIND, GET, HEAD, OPTIONS), `readWrite` does what its owner does except the
 * account's security (password, two-factor sign-in, access tokens), `webdav` works over WebDAV
 * alone, reading and writing.
 */
export const ACCESS_TOKEN_SCOPES = ['read', 'readWrite', 'webdav'] as const;
export const accessTokenScope = z.enum(ACCESS_TOKEN_SCOPES);
export type AccessTokenScope = z.infer<typeof accessTokenScope>;

/** An access token as listed: its text is shown once, when it is made, and never again. */
export const accessTokenView = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  scope: accessTokenScope,
  createTime: z.string(),
  /** Empty until the token is first used. */
  lastActiveTime: z.string(),
  /** Empty for a token that does not expire. */
  expireTime: z.string(),
  /** Milliseconds since 1970 when it stops working, or null. */
  expiresAt: z.number().nullable(),
  expired: z.boolean(),
});
export type AccessTokenView = z.infer<typeof accessTokenView>;

/** The longest an access token may be made to last (ten years). */
export const ACCESS_TOKEN_MAX_LIFETIME_MS = 3650 * 86400_000;

export const generateAccessTokenQuery = z.object({
  tokenName: z
    .string()
    .trim()
    .min(1, 'enter a name for the token')
    .max(
      ACCESS_TOKEN_NAME_MAX_LENGTH,
      `a token name has at most ${ACCESS_TOKEN_NAME_MAX_LENGTH} characters`,
    ),
  /** Without one, a token reads and writes (as tokens made before scopes did). */
  scope: accessTokenScope.optional().default('readWrite'),
  /** When it stops working (milliseconds since 1970, in the future); absent: never. */
  expiresAt: z.coerce
    .number()
    .int('expiresAt: milliseconds since 1970')
    .positive('expiresAt: milliseconds since 1970')
    .optional(),
});

/**
 * What a recovery step (a new password, an administrator's reset, turning two-factor sign-in
 * on) ends for an account: its other sessions and all its access tokens.
 */
export const accessSummaryQuery = z.object({
  /** Another user's (with the right to reset passwords); absent: one's own. */
  id: z.string().min(1).max(64).optional(),
});
export const accessSummary = z.object({
  /** Signed-in sessions besides the one asking. */
  otherSessions: z.number().int(),
  accessTokens: z.number().int(),
});
export type AccessSummary = z.infer<typeof accessSummary>;

export const deleteAccessTokenQuery = z.object({ id: z.string().min(1).max(64) });

// ---- two-factor sign-in (API-NOTES §1.1) --------------------------------------------------

const totpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'enter the six digits your app shows');
/** A code of the app, or a recovery code (ten letters and digits, a dash optional). */
const mfaCode = z
  .string()
  .trim()
  .min(6, 'enter the six digits your app shows, or a recovery code')
  .max(16, 'enter the six digits your app shows, or a recovery code');
const mfaSecret = z.string().trim().min(16).max(64);
const mfaToken = z.string().min(1).max(128);

export const mfaSetupQuery = z.object({
  username: z.string().max(USERNAME_MAX_LENGTH).optional(),
  /** The enrolment step's token, for an account that must enrol before it gets in. */
  mfaToken: mfaToken.optional(),
});
export const mfaSetup = z.object({
  mfaEnable: z.boolean(),
  /** The secret to type in by hand; empty when two-factor sign-in is on already. */
  secret: z.string(),
  /** The otpauth:// address the QR code shows (drawn by the browser). */
  qrCodeImageUri: z.string(),
  mfaForceEnable: z.boolean(),
});
export type MfaSetup = z.infer<typeof mfaSetup>;

export const mfaEnableBody = z.object({ secret: mfaSecret, code: totpCode });
/** The recovery codes, shown this once. */
export const mfaEnableResult = z.object({ recoveryCodes: z.array(z.string()) });
/** Turning two-factor sign-in off takes the account's password and a code (or recovery code). */
export const mfaDisableBody = z.object({
  password: givenPasswordSchema.min(1, 'enter your password'),
  code: mfaCode,
});

export const verifyTotpBody = z.object({
  username: z.string().trim().min(1).max(USERNAME_MAX_LENGTH),
  mfaToken,
  mfaCode,
  rememberMe: z.boolean().optional().default(false),
});
export const initVerifyTotpBody = z.object({
  username: z.string().trim().min(1).max(USERNAME_MAX_LENGTH),
  mfaToken,
  mfaSecret,
  mfaCode: totpCode,
  rememberMe: z.boolean().optional().default(false),
});
export const mfaForceQuery = z.object({ mfaForceEnable: flag() });
/** One user's two-factor sign-in, or, without a user, everybody's. */
export const resetMfaQuery = z.object({ userId: z.string().min(1).max(64).optional() });

// ---- LDAP sign-in (API-NOTES §1.12) --------------------------------------------------------

const LDAP_ADDRESS = /^ldaps?:\/\/[^\s/?#]+\/?$/i;
export const ldapConfig = z.object({
  enable: z.boolean(),
  ldapServer: z
    .string()
    .trim()
    .max(300)
    .refine(
      (v) => v === '' || LDAP_ADDRESS.test(v),
      'an address like ldap://host:389 or ldaps://host:636',
    ),
  baseDN: z.string().trim().max(500),
  userDN: z.string().trim().max(500),
  /** Never sent back: empty in answers; empty in a change keeps the one stored. */
  password: z.string().max(500).optional().default(''),
  loginName: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9-]{0,63}$/, 'an attribute name such as uid or sAMAccountName'),
  defaultRoleList: z.array(z.string().min(1).max(64)).max(50).optional().default([]),
});
export type LdapConfig = z.infer<typeof ldapConfig>;
/** What a form sends: the password and the default roles may be left out. */
export type LdapConfigInput = z.input<typeof ldapConfig>;

/** The forced enrolment's answer: the session, and the recovery codes, shown this once. */
export const initVerifyTotpResult = loginResult.extend(mfaEnableResult.shape);

/**
 * Signing in and out, the first run, the account's second factor and access tokens, and the
 * drive's sign-in settings (the forced second factor, LDAP).
 */
export const authApi = {
  /** `data` is always true; the envelope's `count` says whether the drive has a user (0 or 1). */
  hasUser: endpoint({
    method: 'GET',
    path: '/public/has_user',
    answer: z.boolean(),
    access: 'public',
  }),
  /** Creates the first administrator; refused once the drive has a user. */
  initialize: endpoint({
    method: 'POST',
    path: '/public/initialization',
    body: initializationBody,
    answer: initializationResult,
    access: 'public',
  }),
  login: endpoint({
    method: 'POST',
    path: '/login',
    body: loginBody,
    answer: loginResult,
    access: 'public',
  }),
  logout: endpoint({ method: 'GET', path: '/logout', answer: null, access: 'user' }),
  /** The second step of a sign-in with a second factor. */
  verifyTotp: endpoint({
    method: 'POST',
    path: '/public/verify-totp',
    body: verifyTotpBody,
    answer: loginResult,
    access: 'public',
  }),
  /** Forced enrolment: the first code proves the app has the secret; then the session. */
  initVerifyTotp: endpoint({
    method: 'POST',
    path: '/public/init-verify-totp',
    body: initVerifyTotpBody,
    answer: initVerifyTotpResult,
    access: 'public',
  }),
  /** A new secret to enrol: for the signed-in person, or in the enrolment step of a sign-in. */
  mfaSetup: endpoint({
    method: 'GET',
    path: '/public/mfa/setup',
    query: mfaSetupQuery,
    answer: mfaSetup,
    access: 'public',
    refusesTokens: true,
  }),
  mfaEnable: endpoint({
    method: 'POST',
    path: '/mfa/enable',
    body: mfaEnableBody,
    answer: mfaEnableResult,
    access: 'session',
  }),
  mfaDisable: endpoint({
    method: 'POST',
    path: '/mfa/disable',
    body: mfaDisableBody,
    answer: null,
    access: 'session',
  }),
  /** Whether every account must sign in with a second factor. */
  mfaForced: endpoint({
    method: 'GET',
    path: '/cloud/setting/mfa-force-enable',
    answer: z.boolean(),
    access: 'user',
  }),
  setMfaForced: endpoint({
    method: 'PUT',
    path: '/cloud/setting/mfa-force-enable',
    query: mfaForceQuery,
    answer: null,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  /** One user's second factor, or (the creator only) everybody's. */
  resetMfa: endpoint({
    method: 'PUT',
    path: '/cloud/setting/reset-mfa',
    query: resetMfaQuery,
    answer: null,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  /** A new access token of the signed-in person; answers the token, shown this once. */
  generateAccessToken: endpoint({
    method: 'PUT',
    path: '/user/setting/generateAccessToken',
    query: generateAccessTokenQuery,
    answer: z.string(),
    access: 'session',
  }),
  accessTokens: endpoint({
    method: 'GET',
    path: '/user/setting/accessTokenList',
    answer: z.array(accessTokenView),
    access: 'user',
  }),
  deleteAccessToken: endpoint({
    method: 'DELETE',
    path: '/user/setting/deleteAccessToken',
    query: deleteAccessTokenQuery,
    answer: null,
    access: 'session',
  }),
  /** LDAP sign-in's settings; the password is never sent back. */
  ldapConfig: endpoint({
    method: 'GET',
    path: '/ldap/config',
    answer: ldapConfig,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  /** Only the drive's creator changes them. */
  setLdapConfig: endpoint({
    method: 'PUT',
    path: '/ldap/config',
    body: ldapConfig,
    answer: null,
    access: 'user',
  }),
  /** Signs in to the LDAP server with these settings, saving nothing. */
  testLdapConfig: endpoint({
    method: 'PUT',
    path: '/ldap/test-config',
    body: ldapConfig,
    answer: null,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
};
