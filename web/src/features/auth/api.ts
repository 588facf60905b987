import {
  TOKEN_HEADER,
  type LoginResult,
  type MenuNode,
  type Personalization,
  type SpaceUse,
  type UserInfo,
  type WebsiteRecord,
} from '@nimbus/contract';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, request } from '../../api/client';
import { useSessionStore } from '../../stores/session';

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
    api.get<UserInfo>('/user/info', undefined, { silent: true, handleExpired: false, signal }),
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
    queryFn: ({ signal }) => api.get<SpaceUse>('/space', undefined, { signal }),
    staleTime: 0,
    enabled,
  });
}

export const menuTreeQuery = queryOptions({
  queryKey: authKeys.menuTree,
  queryFn: async ({ signal }) => {
    const tree = await api.get<MenuNode[]>(
      '/menu/tree',
      { userId: useSessionStore.getState().userId || undefined },
      { signal },
    );
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
  queryFn: ({ signal }) =>
    api.get<WebsiteRecord>('/public/website/record', undefined, { silent: true, signal }),
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
    const envelope = await request<boolean>('/public/has_user', { silent: true, signal });
    return (envelope.count ?? 1) > 0;
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
 * arrive while the app's code starts instead of after its first render.
 */
export function prefetchFirstPage(client: QueryClient): void {
  void client.prefetchQuery(websiteRecordQuery);
  if (!useSessionStore.getState().token) void client.prefetchQuery(hasUserQuery);
}

export interface Credentials {
  username: string;
  password: string;
  rememberMe: boolean;
}

export type LoginOutcome =
  | { kind: 'session'; token: string; userId: string; username: string }
  | { kind: 'mfa'; mfaToken: string; username: string; rememberMe: boolean }
  /** The drive requires two-factor sign-in and this account has none yet. */
  | { kind: 'enrol'; mfaToken: string; username: string; rememberMe: boolean };

function toOutcome(
  result: LoginResult | undefined,
  username: string,
  rememberMe: boolean,
): LoginOutcome {
  const token = result?.[TOKEN_HEADER];
  if (result?.mfaToken && !token)
    return {
      kind: result.mfaForceEnable ? 'enrol' : 'mfa',
      mfaToken: result.mfaToken,
      username,
      rememberMe,
    };
  if (!token) throw new Error('The server answered the login without a token');
  return {
    kind: 'session',
    token,
    userId: result?.userId ?? '',
    username: result?.username ?? username,
  };
}

/** spec §5: the username is trimmed before login and MFA calls. */
export async function login({
  username,
  password,
  rememberMe,
}: Credentials): Promise<LoginOutcome> {
  const name = username.trim();
  const result = await api.post<LoginResult>(
    '/login',
    { username: name, password, rememberMe },
    { silent: true },
  );
  return toOutcome(result, name, rememberMe);
}

export async function verifyTotp(input: {
  username: string;
  mfaToken: string;
  mfaCode: string;
  rememberMe: boolean;
}): Promise<LoginOutcome> {
  const name = input.username.trim();
  const result = await api.post<LoginResult>(
    '/public/verify-totp',
    { ...input, username: name },
    { silent: true },
  );
  return toOutcome(result, name, input.rememberMe);
}

/** Forced enrolment: the first code proves the app has the secret; then the session. */
export async function initVerifyTotp(input: {
  username: string;
  mfaToken: string;
  mfaSecret: string;
  mfaCode: string;
  rememberMe: boolean;
}): Promise<{ outcome: LoginOutcome; recoveryCodes: string[] }> {
  const result = await api.post<LoginResult & { recoveryCodes: string[] }>(
    '/public/init-verify-totp',
    input,
    { silent: true },
  );
  return {
    outcome: toOutcome(result, input.username, input.rememberMe),
    recoveryCodes: result?.recoveryCodes ?? [],
  };
}

export async function createAdministrator(input: {
  username: string;
  password: string;
}): Promise<void> {
  await api.post(
    '/public/initialization',
    { username: input.username.trim(), password: input.password },
    { silent: true },
  );
}

/** How long signing out waits for the server before it ends the session here anyway. */
const SIGN_OUT_WAIT_MS = 5000;

export async function logoutRequest(): Promise<void> {
  await api.get('/logout', undefined, {
    silent: true,
    handleExpired: false,
    timeoutMs: SIGN_OUT_WAIT_MS,
  });
}

export async function savePersonalization(personalization: Personalization): Promise<void> {
  await api.post('/user/setting/personalization', personalization);
}
