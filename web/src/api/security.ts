import type { AccessTokenScope, AccessTokenView, MfaSetup } from '@nimbus/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { authKeys } from './account';

export const securityKeys = {
  accessTokens: ['user', 'access-tokens'] as const,
  mfaSetup: ['user', 'mfa-setup'] as const,
};

export function useAccessTokens() {
  return useQuery({
    queryKey: securityKeys.accessTokens,
    queryFn: ({ signal }) =>
      api.get<AccessTokenView[]>('/user/setting/accessTokenList', undefined, { signal }),
  });
}

/** A new token: its text comes back this once. */
export function useGenerateAccessToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: { tokenName: string; scope: AccessTokenScope; expiresAt?: number }) =>
      api.put<string>('/user/setting/generateAccessToken', undefined, { params }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.accessTokens }),
  });
}

export function useDeleteAccessToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete('/user/setting/deleteAccessToken', { id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.accessTokens }),
  });
}

/**
 * A fresh secret to enrol with: signed in, or in the enrolment step of a sign-in (its token).
 * Nothing is stored until a code proves the app has it.
 */
export function fetchMfaSetup(step?: { username: string; mfaToken: string }): Promise<MfaSetup> {
  return api.get<MfaSetup>('/public/mfa/setup', step, { silent: Boolean(step) });
}

export function useEnableMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { secret: string; code: string }) =>
      api.post<{ recoveryCodes: string[] }>('/mfa/enable', input),
    // turning it on ends the access tokens
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: authKeys.userInfo }),
        queryClient.invalidateQueries({ queryKey: securityKeys.accessTokens }),
      ]),
  });
}

export function useDisableMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { password: string; code: string }) => api.post('/mfa/disable', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.userInfo }),
  });
}

/** Everybody's second factor cleared, or `userId`'s alone. */
export async function resetMfa(userId?: string): Promise<void> {
  await api.put('/cloud/setting/reset-mfa', undefined, userId ? { params: { userId } } : undefined);
}
