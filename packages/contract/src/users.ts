import { z } from 'zod';
import { passwordSchema, usernameSchema } from './auth.ts';

const idList = z.preprocess(
  (v: unknown): unknown[] =>
    v === undefined ? [] : Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v],
  z.array(z.string().min(1)).min(1, 'choose at least one item'),
);
export const idsQuery = z.object({ ids: idList });

export const userListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(10),
  username: z.string().trim().optional(),
  showName: z.string().trim().optional(),
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
  roles: z.array(z.string()).optional(),
});

export const updateUserBody = z.object({
  id: z.string().min(1),
  showName: z.string().trim().max(64).optional(),
  slogan: z.string().max(200).optional(),
  introduction: z.string().max(2000).optional(),
  quota: quotaSchema.optional(),
  roles: z.array(z.string()).optional(),
});

export const resetPassBody = z.object({
  id: z.string().min(1),
  password: passwordSchema.optional(),
});

export const validOldPassBody = z.object({ id: z.string().min(1), password: z.string() });
export const updatePassBody = z.object({
  id: z.string().min(1),
  oldPassword: z.string().optional(),
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
