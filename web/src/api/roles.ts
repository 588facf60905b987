import type { Role } from '@nimbus/contract';
import { requestPage, type Page } from './client';

/** The drive's roles (the Roles page, and the role pickers of settings). */
export async function fetchRoles(): Promise<Page<Role>> {
  return requestPage<Role>('/role/list');
}
