import { z } from 'zod';
import { recordIdSchema } from './users.ts';

export interface MenuNode {
  id: string;
  parentId: string | null;
  name: string;
  authority: string | null;
  path: string | null;
  component: string | null;
  icon: string | null;
  sortNumber: number;
  menuType: number;
  hide: boolean;
  builtin: boolean;
  children?: MenuNode[];
}

export const menuBody = z.object({
  parentId: z.string().max(64).nullish(),
  name: z.string().trim().min(1, 'enter a menu name').max(64),
  authority: z.string().trim().max(100).nullish(),
  path: z.string().trim().max(200).nullish(),
  component: z.string().trim().max(200).nullish(),
  icon: z.string().trim().max(200).nullish(),
  sortNumber: z.coerce.number().int().default(0),
  menuType: z.coerce.number().int().min(0).max(4),
  hide: z.coerce.boolean().default(false),
});
export const menuUpdateBody = menuBody.partial().extend({ id: recordIdSchema });

export interface Role {
  id: string;
  name: string;
  code: string;
  remarks: string | null;
  builtin: boolean;
  menuIds: string[];
  createTime: string;
}

export const roleBody = z.object({
  name: z.string().trim().min(1, 'enter a role name').max(64),
  code: z
    .string()
    .trim()
    .regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,31}$/, 'role code: letters, digits, "_" or "-"'),
  remarks: z.string().max(500).nullish(),
  menuIds: z.array(recordIdSchema).max(1000, 'at most 1000 menus').default([]),
});
export const roleUpdateBody = roleBody.partial().extend({ id: recordIdSchema });
