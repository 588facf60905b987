import type { AuditAction } from '@nimbus/contract';

// Which requests the audit log records, decided from the method and the route alone.

/** Sign-in routes: their answer says who signed in. */
export const SIGN_IN_ROUTES = new Set([
  '/login',
  '/public/verify-totp',
  '/public/init-verify-totp',
]);

const EXACT: Record<string, AuditAction> = {
  'GET /logout': 'signOut',
  'POST /user/add': 'user.add',
  'PUT /user/update': 'user.update',
  'DELETE /user/delete': 'user.delete',
  'PUT /user/reset-pass': 'user.resetPassword',
  'PUT /user/update-pass': 'password.change',
  'PUT /user/setting/resetMenuAndRole': 'role.change',
  'PUT /user/setting/update_netdisk_name': 'settings.change',
  'POST /user/setting/upload_logo': 'settings.change',
  'PUT /user/setting/generateAccessToken': 'accessToken.change',
  'DELETE /user/setting/deleteAccessToken': 'accessToken.change',
  'POST /mfa/enable': 'mfa.change',
  'POST /mfa/disable': 'mfa.change',
  'PUT /cloud/setting/reset-mfa': 'mfa.change',
  'PUT /cloud/setting/mfa-force-enable': 'mfa.change',
  'PUT /ldap/config': 'settings.change',
  'PUT /office/config': 'settings.change',
  'PUT /website/setting/update': 'settings.change',
};

/** The action a request is recorded as, or null when it is not one the log keeps. */
export function auditActionOf(method: string, route: string): AuditAction | null {
  if (method === 'POST' && SIGN_IN_ROUTES.has(route)) return 'signIn';
  const exact = EXACT[`${method} ${route}`];
  if (exact) return exact;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null;
  if (route.startsWith('/role/')) return 'role.change';
  if (route.startsWith('/menu/')) return 'menu.change';
  if (route.startsWith('/cloud/setting/')) return 'settings.change';
  return null;
}

/** Fields of a request that name what it acts on; nothing else (no secrets) is kept. */
const NAMING_FIELDS = ['username', 'id', 'ids', 'name', 'netdiskName', 'roleName'];
/**
 * A role's `code` names it; everywhere else a `code` is a secret (a second-factor code, a
 * recovery code, a share code), so it is named on the role routes only.
 */
const namingFieldsOf = (route: string) =>
  route.startsWith('/role/') ? [...NAMING_FIELDS, 'code'] : NAMING_FIELDS;

/** What a request acted on, in a few words: the route and the naming fields it carried. */
export function auditTargetOf(route: string, ...sources: unknown[]): string {
  const parts: string[] = [];
  for (const source of sources) {
    if (!source || typeof source !== 'object') continue;
    for (const key of namingFieldsOf(route)) {
      const value = (source as Record<string, unknown>)[key];
      if (value === undefined || value === null || value === '') continue;
      const text = Array.isArray(value)
        ? value.filter((v) => typeof v === 'string' || typeof v === 'number').join(',')
        : typeof value === 'string' || typeof value === 'number'
          ? String(value)
          : '';
      if (text === '') continue;
      parts.push(`${key}=${text.slice(0, 120)}`);
    }
  }
  return [route, ...parts].join(' ').slice(0, 512);
}
