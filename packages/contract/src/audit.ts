import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { queryNumber } from './validation.ts';

// The audit log (issue 13): sign-ins and administrative and security changes, for administrators.

/** What an entry records. */
export const AUDIT_ACTIONS = [
  'signIn',
  /** A password that passed, with the second factor still to come. */
  'signInSecondFactorNext',
  'signOut',
  'user.add',
  'user.update',
  'user.delete',
  'user.resetPassword',
  'role.change',
  'menu.change',
  'settings.change',
  'mfa.change',
  'password.change',
  'accessToken.change',
  /** Trash items older than the retention setting went by themselves (no request: ip ''). */
  'trash.expire',
  /** Versions beyond the retention settings went by themselves. */
  'versions.expire',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditQuery = z.object({
  pageIndex: queryNumber(z.number().int().min(1)).default(1),
  pageSize: queryNumber(z.number().int().min(1).max(100)).default(20),
  action: z.enum(AUDIT_ACTIONS).optional(),
  username: z.string().max(255).optional(),
});

export const auditEntry = z.object({
  id: z.string(),
  /** `yyyy-MM-dd HH:mm:ss`. */
  time: z.string(),
  username: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  /** What was acted on (an address, a name), or ''. */
  target: z.string(),
  ip: z.string(),
  ok: z.boolean(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** The audit log's endpoints. */
export const auditApi = {
  /** The log, newest first, a page at a time; `count` is the number of entries in all. */
  list: endpoint({
    method: 'GET',
    path: '/audit/list',
    query: auditQuery,
    answer: z.array(auditEntry),
    access: 'user',
    authority: 'cloud:set:sync',
  }),
};
