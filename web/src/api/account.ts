import {
  authApi,
  filesApi,
  menusApi,
  settingsApi,
  usersApi,
  type Personalization,
} from '@nimbus/contract';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useSessionStore } from '../stores/session';
import { callEndpoint, callEndpointPage } from './endpoints';

/**
 * The signed-in account and the drive's public record: what every page reads (the shell, the
 * features, the sign-in page), so it sits below them all.
 */
export const authKeys = {
  userInfo: ['user', 'info'] as const,
  space: ['user', 'space'] as const,
  menuTree: ['menu', 'tree'] as const,
  websiteRecord: ['website', 'record'] as const,
  hasUser: ['public', 'has-user'] as const,
};

/** The signed-in user. Silent: the session gate handles a failure (spec §8). */
export const userInfoQuery = queryOptions({
  queryKey: authKeys.userInfo,
  queryFn: ({ signal }) =>
    callEndpoint(usersApi.info, {}, { silent: true, handleExpired: false, signal }),
  staleTime: 60_000,
  retry: false,
});

export function useUserInfo() {
  const token = useSessionStore((s) => s.token);
  return useQuery({ ...userInfoQuery, enabled: Boolean(token) });
}

/**
 * What the used space is made of (files, versions kept, trash), read afresh each time it is
 * shown (the quota bar's tooltip).
 */
export function useSpaceUse(enabled: boolean) {
  return useQuery({
    queryKey: authKeys.space,
    queryFn: ({ signal }) => callEndpoint(filesApi.space, {}, { signal }),
    staleTime: 0,
    enabled,
  });
}

export const menuTreeQuery = queryOptions({
  queryKey: authKeys.menuTree,
  queryFn: async ({ signal }) => {
    const tree = await callEndpoint(menusApi.tree, {}, { signal });
    return Array.isArray(tree) ? tree : [];
  },
  staleTime: 5 * 60_000,
});

export function useMenuTree() {
  const token = useSessionStore((s) => s.token);
  return useQuery({ ...menuTreeQuery, enabled: Boolean(token) });
}

/** The drive's public record (name, logo, footer): every page shows it, signed in or not. */
export const websiteRecordQuery = queryOptions({
  queryKey: authKeys.websiteRecord,
  queryFn: ({ signal }) => callEndpoint(settingsApi.record, {}, { silent: true, signal }),
  staleTime: 10 * 60_000,
  retry: false,
});

export function useWebsiteRecord() {
  return useQuery(websiteRecordQuery);
}

/** `count` 0 means the drive has no user yet: the login screen offers "create admin". */
export const hasUserQuery = queryOptions({
  queryKey: authKeys.hasUser,
  queryFn: async ({ signal }) => {
    // the answer is in the envelope's count (0 or 1), as a listing's total
    const { total } = await callEndpointPage(authApi.hasUser, {}, { silent: true, signal });
    return total > 0;
  },
  // asked once per visit: creating the first administrator sets the answer itself
  staleTime: Infinity,
  retry: false,
});

export function useHasUser() {
  return useQuery(hasUserQuery);
}

/**
 * Asks for what the first page needs before the page is drawn: the drive's record always, and
 * whether it has a user when nobody is signed in (the sign-in page waits on it). The answers
 * arrive while the app's code starts instead of after its first render. Settles when the
 * sign-in page's question is answered (at once when it is not asked).
 */
export async function prefetchFirstPage(client: QueryClient): Promise<void> {
  void client.prefetchQuery(websiteRecordQuery);
  if (!useSessionStore.getState().token) await client.prefetchQuery(hasUserQuery);
}

export async function savePersonalization(personalization: Personalization): Promise<void> {
  await callEndpoint(usersApi.setTheme, { body: personalization });
}
