import { z } from 'zod';
import {
  accessSummary,
  accessSummaryQuery,
  givenPasswordSchema,
  passwordSchema,
  personalizationBody,
  userInfo,
  usernameSchema,
} from './auth.ts';
import { QUOTA_MAX_GB, SHOW_NAME_MAX_LENGTH } from './constants.ts';
import { endpoint } from './endpoint.ts';
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

/**
 * The users' endpoints: the administration of accounts, and one's own account (profile,
 * password, theme). An authority named here is the one every call needs; the others are
 * checked by the service per target (one's own account, or the right to manage another's).
 */
export const usersApi = {
  /** The signed-in person's own account, with the menus and authorities it grants. */
  info: endpoint({ method: 'GET', path: '/user/info', answer: userInfo, access: 'user' }),
  /** One user: oneself, or anyone with `sys:user:list`. */
  get: endpoint({
    method: 'GET',
    path: '/user/userInfo',
    query: userInfoQuery,
    answer: userListItem,
    access: 'user',
  }),
  defaults: endpoint({
    method: 'GET',
    path: '/user/defaults',
    answer: userDefaults,
    access: 'user',
    authority: 'sys:user:add',
  }),
  groups: endpoint({
    method: 'GET',
    path: '/group/list',
    answer: groupList,
    access: 'user',
    authority: 'sys:user:list',
  }),
  list: endpoint({
    method: 'GET',
    path: '/user/userList',
    query: userListQuery,
    answer: userList,
    access: 'user',
    authority: 'sys:user:list',
  }),
  add: endpoint({
    method: 'POST',
    path: '/user/add',
    body: addUserBody,
    answer: userListItem,
    access: 'user',
    authority: 'sys:user:add',
  }),
  /**
   * One's own profile, or (with `sys:user:update`) another's; quota and roles always need
   * that authority. Sent as a form, it may carry one's new picture as `blobAvatar`.
   */
  update: endpoint({
    method: 'PUT',
    path: '/user/update',
    body: updateUserBody,
    answer: userListItem,
    access: 'user',
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/user/delete',
    query: idsQuery,
    answer: null,
    access: 'user',
    authority: 'sys:user:delete',
  }),
  /** What a new password (or two-factor sign-in turned on) would end, for the confirmation. */
  accessSummary: endpoint({
    method: 'GET',
    path: '/user/access-summary',
    query: accessSummaryQuery,
    answer: accessSummary,
    access: 'user',
  }),
  /** An administrator sets another's password, or has one generated (answered once). */
  resetPassword: endpoint({
    method: 'PUT',
    path: '/user/reset-pass',
    body: resetPassBody,
    answer: resetPassResult,
    access: 'session',
    authority: 'sys:user:update',
  }),
  /** Whether one's own current password is this one (code -2 when it is not). */
  checkOldPassword: endpoint({
    method: 'POST',
    path: '/valid-old-pass',
    body: validOldPassBody,
    answer: z.boolean().optional(),
    access: 'session',
  }),
  changePassword: endpoint({
    method: 'PUT',
    path: '/user/update-pass',
    body: updatePassBody,
    answer: null,
    access: 'session',
  }),
  theme: endpoint({
    method: 'GET',
    path: '/user/setting/personalization',
    answer: personalizationBody,
    access: 'user',
  }),
  setTheme: endpoint({
    method: 'POST',
    path: '/user/setting/personalization',
    body: personalizationBody,
    answer: personalizationBody,
    access: 'user',
  }),
};
