import {
  menusApi,
  rolesApi,
  type AddUserBody,
  type BodyIn,
  type MenuNode,
  type UpdateUserBody,
  type UserDefaults,
  type UserInfo,
  type UserListItem,
  type UserListQuery,
} from '@nimbus/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, requestPage, type Page } from '../../api/client';
import { callEndpoint } from '../../api/endpoints';

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

/** A role as its dialog edits it: a new one's fields, with its id when it exists already. */
export type RoleForm = BodyIn<typeof rolesApi.add> & { id?: string };

/** Adds or changes a role: the role list and the menus the roles grant reload. */
export function useSaveRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...fields }: RoleForm) =>
      id
        ? callEndpoint(rolesApi.update, { body: { id, ...fields } })
        : callEndpoint(rolesApi.add, { body: fields }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: systemKeys.roles });
      await queryClient.invalidateQueries({ queryKey: ['menu', 'tree'] });
    },
  });
}

export function useDeleteRoles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => callEndpoint(rolesApi.remove, { query: { ids } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: systemKeys.roles }),
  });
}

export async function fetchMenus(): Promise<MenuNode[]> {
  const list = await callEndpoint(menusApi.list);
  return Array.isArray(list) ? list : [];
}

/** A menu as its dialog edits it: a new one's fields, with its id when it exists already. */
export type MenuForm = BodyIn<typeof menusApi.add> & { id?: string };

/** Adds or changes a menu, or deletes some: every menu query (the sidebars' too) reloads. */
function useMenuChange<Input>(change: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['menu'] }),
  });
}

export const useSaveMenu = () =>
  useMenuChange(({ id, ...fields }: MenuForm) =>
    id
      ? callEndpoint(menusApi.update, { body: { id, ...fields } })
      : callEndpoint(menusApi.add, { body: fields }),
  );

/** Deletes menus: the caller names a menu's whole subtree. */
export const useDeleteMenus = () =>
  useMenuChange((ids: string[]) => callEndpoint(menusApi.remove, { query: { ids } }));
