import type {
  AddUserBody,
  MenuNode,
  UpdateUserBody,
  UserDefaults,
  UserInfo,
  UserListItem,
  UserListQuery,
} from '@nimbus/contract';
import { api, requestPage, type Page } from '../../api/client';

export const systemKeys = {
  users: (query: UserQuery) => ['user', 'list', query] as const,
  roles: ['role', 'list'] as const,
  menus: ['menu', 'list'] as const,
  userDefaults: ['user', 'defaults'] as const,
};

export type UserQuery = UserListQuery;

export function fetchUsers(query: UserQuery, signal?: AbortSignal): Promise<Page<UserListItem>> {
  return requestPage<UserListItem>('/user/userList', { ...query }, { signal });
}

/** What a new user gets when the add form leaves a field out (the server's default quota). */
export function fetchUserDefaults(): Promise<UserDefaults> {
  return api.get<UserDefaults>('/user/defaults');
}

export function fetchUser(id: string): Promise<UserInfo> {
  return api.get<UserInfo>('/user/userInfo', { id });
}

/** The user dialog's fields: a new user's, with the password left out when editing. */
export type UserForm = Omit<AddUserBody, 'password'> & Partial<Pick<AddUserBody, 'password'>>;

export async function addUser(input: AddUserBody): Promise<void> {
  await api.post('/user/add', input);
}

export async function updateUser(input: UpdateUserBody): Promise<void> {
  await api.put('/user/update', {
    id: input.id,
    showName: input.showName,
    quota: input.quota,
    roles: input.roles,
  });
}

export async function deleteUsers(ids: string[]): Promise<void> {
  await api.delete('/user/delete', { ids });
}

/** Resets a password; without one the server generates it. Resolves with the new password. */
export async function resetPassword(id: string, password?: string): Promise<string> {
  const data = await api.put<{ password?: string } | null>('/user/reset-pass', {
    id,
    password: password || undefined,
  });
  return data?.password ?? password ?? '';
}

export { fetchRoles } from '../../api/roles';

export interface RoleForm {
  id?: string;
  name: string;
  code: string;
  remarks?: string | null;
  menuIds: string[];
}

export async function saveRole(input: RoleForm): Promise<void> {
  if (input.id) await api.put('/role/update', input);
  else await api.post('/role/add', input);
}

export async function deleteRoles(ids: string[]): Promise<void> {
  await api.delete('/role/delete', { ids });
}

export async function fetchMenus(): Promise<MenuNode[]> {
  const list = await api.get<MenuNode[]>('/menu/list');
  return Array.isArray(list) ? list : [];
}

export type MenuForm = Omit<MenuNode, 'id' | 'builtin' | 'children'> & { id?: string };

export async function saveMenu(input: MenuForm): Promise<void> {
  if (input.id) await api.put('/menu/update', input);
  else await api.post('/menu/add', input);
}

export async function deleteMenus(ids: string[]): Promise<void> {
  await api.delete('/menu/delete', { ids });
}
