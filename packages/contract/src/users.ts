import { z } from 'zod';
import { givenPasswordSchema, passwordSchema, usernameSchema } from './auth.ts';

/** The id of a user, role or menu (UUIDs, and the built-in ids such as `role-admin`). */
export const recordIdSchema = z.string().min(1).max(64, 'an id is at most 64 characters');
/** Roles given to one user. */
const roleIdsSchema = z.array(recordIdSchema).max(100, 'at most 100 roles');

const idList = z.preprocess(
  (v: unknown): unknown[] =>
    v === undefined ? [] : Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v],
  z.array(recordIdSchema).min(1, 'choose at least one item').max(1000, 'at most 1000 items'),
);
export const idsQuery = z.object({ ids: idList });

export const userListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(10),
  username: z.string().trim().max(64).optional(),
  showName: z.string().trim().max(64).optional(),
  sortProp: z.enum(['username', 'showName', 'createTime', 'quota']).optional(),
  sortOrder: z.enum(['ascending', 'descending']).optional(),
});

export const quotaSchema = z.coerce
  .number()
  .min(0, 'quota must not be negative')
  .max(1024 * 1024, 'quota is too large');

export const addUserBody = z.object({
  username: usernameSchema,
  showName: z.string().trim().max(64).optional(),
  password: passwordSchema,
  quota: quotaSchema.optional(),
  roles: roleIdsSchema.optional(),
});

export const updateUserBody = z.object({
  id: recordIdSchema,
  showName: z.string().trim().max(64).optional(),
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

export interface UserListItem {
  id: string;
  username: string;
  showName: string;
  avatar: string | null;
  quota: number;
  takeUpSpace: number;
  creator: boolean;
  roles: string[];
  createTime: string;
}
