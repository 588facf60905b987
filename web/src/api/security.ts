import { authApi, type AccessTokenScope, type MfaSetup } from '@nimbus/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authKeys } from './account';
import { callEndpoint } from './endpoints';

export const securityKeys = {
  accessTokens: ['user', 'access-tokens'] as const,
  mfaSetup: ['user', 'mfa-setup'] as const,
};

export function useAccessTokens() {
  return useQuery({
    queryKey: securityKeys.accessTokens,
    queryFn: ({ signal }) => callEndpoint(authApi.accessTokens, {}, { signal }),
  });
}

/** A new token: its text comes back this once. */
export function useGenerateAccessToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (query: { tokenName: string; scope: AccessTokenScope; expiresAt?: number }) =>
      callEndpoint(authApi.generateAccessToken, { query }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.accessTokens }),
  });
}

export function useDeleteAccessToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(authApi.deleteAccessToken, { query: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.accessTokens }),
  });
}

/**
 * A fresh secret to enrol with: signed in, or in the enrolment step of a sign-in (its token).
 * Nothing is stored until a code proves the app has it.
 */
export function fetchMfaSetup(step?: { username: string; mfaToken: string }): Promise<MfaSetup> {
  return callEndpoint(authApi.mfaSetup, { query: step }, { silent: Boolean(step) });
}

export function useEnableMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { secret: string; code: string }) =>
      callEndpoint(authApi.mfaEnable, { body }),
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
    mutationFn: (body: { password: string; code: string }) =>
      callEndpoint(authApi.mfaDisable, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.userInfo }),
  });
}

/** Everybody's second factor cleared, or `userId`'s alone. */
export async function resetMfa(userId?: string): Promise<void> {
  await callEndpoint(authApi.resetMfa, { query: userId ? { userId } : {} });
}
