import { z } from 'zod';
import { givenPasswordSchema, passwordSchema, usernameSchema } from './auth.ts';
import { QUOTA_MAX_GB, SHOW_NAME_MAX_LENGTH } from './constants.ts';
import { listField, queryNumber } from './validation.ts';

/** The id of a user, role or menu (UUIDs, and the built-in ids such as `role-admin`). */
export const recordIdSchema = z.string().min(1).max(64, 'an id is at most 64 characters');
/** Roles given to one user. */
/** Role ids: a JSON list, or a form's field, which holds one role as a plain value. */
const roleIdsSchema = z.preprocess(
  (v) => (typeof v === 'string' ? [v] : v),
  z.array(recordIdSchema).max(100, 'at most 100 roles'),
);

/** A repeated-key (or comma-separated) list of ids; at least one. */
const idList = listField(1000, 64).refine((ids) => ids.length > 0, 'choose at least one item');
export const idsQuery = z.object({ ids: idList });

export const userListQuery = z.object({
  page: queryNumber(z.number().int().min(1).default(1)),
  pageSize: queryNumber(z.number().int().min(1).max(500).default(10)),
  username: z.string().trim().max(64).optional(),
  showName: z.string().trim().max(SHOW_NAME_MAX_LENGTH).optional(),
  sortProp: z.enum(['username', 'showName', 'createTime', 'quota']).optional(),
  sortOrder: z.enum(['ascending', 'descending']).optional(),
});

export const quotaSchema = queryNumber(
  z.number().min(0, 'quota must not be negative').max(QUOTA_MAX_GB, 'quota is too large'),
);

export const addUserBody = z.object({
  username: usernameSchema,
  showName: z.string().trim().max(SHOW_NAME_MAX_LENGTH).optional(),
  password: passwordSchema,
  quota: quotaSchema.optional(),
  roles: roleIdsSchema.optional(),
});

export const updateUserBody = z.object({
  id: recordIdSchema,
  showName: z.string().trim().max(SHOW_NAME_MAX_LENGTH).optional(),
  slogan: z.string().max(200).optional(),
  introduction: z.string().max(2000).optional(),
  quota: quotaSchema.optional(),
  roles: roleIdsSchema.optional(),
});

export const resetPassBody = z.object({
  id: recordIdSchema,
  password: passwordSchema.optional(),
});

export const validOldPassBody = z.object({ id: recordIdSchema, password: givenPasswordSchema });
export const updatePassBody = z.object({
  id: recordIdSchema,
  oldPassword: givenPasswordSchema.optional(),
  password: passwordSchema,
});

/** A user as the user management list shows it. */
export const userListItem = z.object({
  id: z.string(),
  username: z.string(),
  showName: z.string(),
  /** Absent without one (as the original). */
  avatar: z.string().optional(),
  quota: z.number(),
  takeUpSpace: z.number(),
  creator: z.boolean(),
  roles: z.array(z.string()),
  createTime: z.string(),
  /** Whether the account signs in with a second factor (an administrator may reset it). */
  mfaEnabled: z.boolean(),
});
export type UserListItem = z.infer<typeof userListItem>;
export type UserListQuery = z.infer<typeof userListQuery>;
export type AddUserBody = z.infer<typeof addUserBody>;
export type UpdateUserBody = z.infer<typeof updateUserBody>;
export const userList = z.array(userListItem);
/**
 * `GET /group/list`: the original's user groups. Nimbus grants rights by roles alone, so the
 * list is always empty (docs/API.md, "Calls of the original not served").
 */
export const groupList = z.array(
  z.object({ id: z.string(), code: z.string(), name: z.string(), description: z.string() }),
);

export const userInfoQuery = z.object({ id: recordIdSchema });
/** `GET /user/defaults`: what a new user gets when the form leaves a field out (quota in GB). */
export const userDefaults = z.object({ quota: z.number() });
export type UserDefaults = z.infer<typeof userDefaults>;
export const resetPassResult = z.object({ password: z.string() });
