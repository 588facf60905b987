import { authApi, TOKEN_HEADER, type LoginResult } from '@nimbus/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authKeys } from '../../api/account';
import { callEndpoint } from '../../api/endpoints';

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
  const result = await callEndpoint(
    authApi.login,
    { body: { username: name, password, rememberMe } },
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
  const result = await callEndpoint(
    authApi.verifyTotp,
    { body: { ...input, username: name } },
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
  const result = await callEndpoint(authApi.initVerifyTotp, { body: input }, { silent: true });
  return {
    outcome: toOutcome(result, input.username, input.rememberMe),
    recoveryCodes: result?.recoveryCodes ?? [],
  };
}

export async function createAdministrator(input: {
  username: string;
  password: string;
}): Promise<void> {
  await callEndpoint(
    authApi.initialize,
    { body: { username: input.username.trim(), password: input.password } },
    { silent: true },
  );
}

/**
 * The first run's administrator, then signed in. The drive counts as having a user only once
 * that sign-in is settled, so the first-run form stays (busy) until then and the sign-in form
 * shows only if it fails.
 */
export function useCreateAdministrator() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { username: string; password: string }) => {
      await createAdministrator(input);
      try {
        return await login({
          username: input.username,
          password: input.password,
          rememberMe: true,
        });
      } finally {
        client.setQueryData(authKeys.hasUser, true);
      }
    },
  });
}

/** How long signing out waits for the server before it ends the session here anyway. */
const SIGN_OUT_WAIT_MS = 5000;

export async function logoutRequest(): Promise<void> {
  await callEndpoint(
    authApi.logout,
    {},
    { silent: true, handleExpired: false, timeoutMs: SIGN_OUT_WAIT_MS },
  );
}
