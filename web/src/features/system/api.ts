import {
  menusApi,
  rolesApi,
  usersApi,
  type BodyIn,
  type MenuNode,
  type QueryOf,
} from '@nimbus/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint, callEndpointPage } from '../../api/endpoints';
import { resetMfa } from '../../api/security';

export const systemKeys = {
  users: (query: UserQuery) => ['user', 'list', query] as const,
  roles: ['role', 'list'] as const,
  menus: ['menu', 'list'] as const,
  userDefaults: ['user', 'defaults'] as const,
};

/** The user list's query, with its page and page size filled in. */
export type UserQuery = QueryOf<typeof usersApi.list>;

export function fetchUsers(query: UserQuery, signal?: AbortSignal) {
  return callEndpointPage(usersApi.list, { query }, { signal });
}

/** What a new user gets when the add form leaves a field out (the server's default quota). */
export const fetchUserDefaults = () => callEndpoint(usersApi.defaults);

/** The user dialog's fields: a new user's, with the password left out when editing. */
export type UserForm = Omit<BodyIn<typeof usersApi.add>, 'password'> & { password?: string };

/** Every query of the user list reloads after a change of users. */
function useUsersChange<Input, Output>(change: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['user', 'list'] }),
  });
}

/** Adds a user (`id` absent) or changes one's profile, quota and roles. */
export const useSaveUser = () =>
  useUsersChange(({ id, ...form }: UserForm & { id?: string }) =>
    id
      ? callEndpoint(usersApi.update, {
          body: { id, showName: form.showName, quota: form.quota, roles: form.roles },
        })
      : callEndpoint(usersApi.add, {
          body: { ...form, username: form.username.trim(), password: form.password ?? '' },
        }),
  );

export const useDeleteUsers = () =>
  useUsersChange((ids: string[]) => callEndpoint(usersApi.remove, { query: { ids } }));

/** Resets a password; without one the server generates it. Resolves with the new password. */
export const useResetPassword = () =>
  useUsersChange(async ({ id, password }: { id: string; password?: string }) => {
    const data = await callEndpoint(usersApi.resetPassword, {
      body: { id, password: password || undefined },
    });
    return data.password;
  });
/** Clears one person's second factor: they sign in with their password and enrol again. */
export const useResetUserMfa = () => useUsersChange((id: string) => resetMfa(id));

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
