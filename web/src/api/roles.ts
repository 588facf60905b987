import { rolesApi, type Role } from '@nimbus/contract';
import type { Page } from './client';
import { callEndpointPage } from './endpoints';

/** The drive's roles (the Roles page, and the role pickers of settings). */
export function fetchRoles(): Promise<Page<Role>> {
  return callEndpointPage(rolesApi.list);
}
