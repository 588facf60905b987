import { ADMIN_ROLE, USER_ROLE, type Role } from '@nimbus/contract';
import { translateKey } from '../i18n/index';

/** The built-in roles by id, with the name they were seeded with. */
const BUILT_IN: Record<string, string> = {
  [ADMIN_ROLE.id]: ADMIN_ROLE.name,
  [USER_ROLE.id]: USER_ROLE.name,
};

/**
 * A built-in role under its seeded name is shown in the reader's language (`system:roles.builtinNames.<id>`);
 * a name an administrator gave it, and every other role, show as stored.
 * Callers re-render on a language change through their own useTranslation().
 */
export function roleLabel(role: Pick<Role, 'id' | 'name'>): string {
  if (BUILT_IN[role.id] !== role.name) return role.name;
  return translateKey(`system:roles.builtinNames.${role.id}`);
}
