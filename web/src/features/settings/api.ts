import {
  authApi,
  checkApi,
  healthApi,
  imagesApi,
  syncApi,
  transcodeApi,
  type BodyIn,
  type UserInfo,
  type Endpoint,
  menusApi,
  usersApi,
  type DriveCheckStart,
  type LdapConfigInput,
  settingsApi,
  type WebsiteSettingBody,
} from '@nimbus/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { authKeys } from '../../api/account';
import { resetMfa, securityKeys } from '../../api/security';
import { ApiError } from '../../api/client';
import { callEndpoint, callEndpointForm } from '../../api/endpoints';
import i18n from '../../i18n';
import { feedback } from '../../lib/feedback';

export const settingsKeys = {
  config: (name: string) => ['settings', 'config', name] as const,
  transcodes: ['settings', 'transcodes'] as const,
  syncState: ['settings', 'sync-state'] as const,
  driveCheck: ['settings', 'drive-check'] as const,
};

/** Says why a call failed: the server's words for a refusal, else that the server failed. */
const toastFailure = (err: unknown) => {
  const business = err instanceof ApiError && err.kind === 'business';
  void feedback().message.error({
    content: business ? err.message : i18n.t('common:request.serverError'),
    duration: 3,
  });
};

/** The check of the drive running now, or the last one; followed every second while it runs. */
export function useDriveCheck() {
  return useQuery({
    queryKey: settingsKeys.driveCheck,
    queryFn: ({ signal }) => callEndpoint(checkApi.status, {}, { signal }),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === 'running' || state === 'queued' ? 1000 : false;
    },
  });
}

/**
 * Starts a check of the drive. A 409 says one is running already (a double-click, another
 * administrator, another tab): not a mistake, so no error; the page follows that check instead.
 */
export function useStartDriveCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (options: DriveCheckStart) =>
      callEndpoint(checkApi.start, { body: options }, { silent: true }),
    onSuccess: (view) => queryClient.setQueryData(settingsKeys.driveCheck, view),
    onError: (err) => {
      if (!(err instanceof ApiError && err.status === 409)) toastFailure(err);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.driveCheck });
    },
  });
}

/** Cancels the check under way; answers once it has stopped, with what it found until then. */
export function useCancelDriveCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(checkApi.cancel),
    onSuccess: (view) => queryClient.setQueryData(settingsKeys.driveCheck, view),
    onError: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.driveCheck }),
  });
}

/** Changes one's display name: the profile shows it at once. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: string; showName: string }) => callEndpoint(usersApi.update, { body }),
    onSuccess: (_, { showName }) =>
      queryClient.setQueryData<UserInfo>(authKeys.userInfo, (info) =>
        info ? { ...info, showName } : info,
      ),
  });
}

export async function validOldPassword(input: { id: string; password: string }): Promise<void> {
  await callEndpoint(usersApi.checkOldPassword, { body: input }, { silent: true });
}

/** Changes one's password; the change ends one's access tokens. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: string; oldPassword: string; password: string }) =>
      callEndpoint(usersApi.changePassword, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.accessTokens }),
  });
}

/** The drive's name and logo show in the profile and on the public pages: both reload. */
const refreshBranding = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: authKeys.userInfo }),
    queryClient.invalidateQueries({ queryKey: authKeys.websiteRecord }),
  ]);

/** Renames the drive (administrators). */
export function useRenameDrive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (netdiskName: string) =>
      callEndpoint(settingsApi.rename, { query: { netdiskName } }),
    onSuccess: () => refreshBranding(queryClient),
  });
}

/** Sends a new logo of the drive (administrators). */
export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return callEndpointForm(settingsApi.uploadLogo, form, () => undefined);
    },
    onSuccess: () => refreshBranding(queryClient),
    onError: toastFailure,
  });
}

/** Puts the built-in menus and roles back: every menu and role query reloads. */
export function useResetMenusAndRoles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(menusApi.reset),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['menu'] });
      await queryClient.invalidateQueries({ queryKey: ['role'] });
    },
  });
}

/** Rebuilds the index of every user's tree; the live messages tell how far it has come. */
export function useRebuildIndex() {
  return useMutation({ mutationFn: () => callEndpoint(syncApi.rebuildAll) });
}

/** Recounts the size of every folder; the live messages tell how far it has come. */
export function useRecalculateFolderSizes() {
  return useMutation({ mutationFn: () => callEndpoint(syncApi.recalculateFolderSizes) });
}

export interface SyncState {
  syncPercent?: number;
  indexingPercent?: number;
}

/** An admin configuration read as one JSON object, by the endpoint that answers it. */
export function useConfig<E extends Endpoint>(name: string, definition: E, enabled = true) {
  return useQuery({
    queryKey: settingsKeys.config(name),
    queryFn: ({ signal }) => callEndpoint(definition, {}, { silent: true, signal }),
    enabled,
    retry: false,
    staleTime: 30_000,
  });
}

/** Saves an admin configuration as the body of its endpoint; the configuration reloads. */
export function useSaveConfig<E extends Endpoint>(name: string, definition: E) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyIn<E>) => callEndpoint(definition, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.config(name) }),
  });
}

/** A page of the transcodes under way, every user's (administrators), kept current. */
export function useTranscodeStatus(pageIndex: number, pageSize: number) {
  return useQuery({
    queryKey: [...settingsKeys.transcodes, pageIndex, pageSize],
    queryFn: ({ signal }) =>
      callEndpoint(
        transcodeApi.status,
        { query: { pageIndex, pageSize } },
        { silent: true, signal },
      ),
    // every few seconds while any runs; now and then while none does, for new ones
    refetchInterval: (query) => ((query.state.data?.count ?? 0) > 0 ? 3000 : 15_000),
  });
}

/** Stops these transcodes, or every one when none is named; answers how many stopped. */
export function useCancelTranscodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (taskIds?: string[]) =>
      (await callEndpoint(transcodeApi.cancel, { body: taskIds ? { taskIds } : {} })).cancelled,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.transcodes }),
  });
}

/** Signs in to the LDAP server with these settings, saving nothing. */
export function useTestLdapConfig() {
  return useMutation({
    mutationFn: (body: LdapConfigInput) => callEndpoint(authApi.testLdapConfig, { body }),
  });
}

/** Whether every account must sign in with a second factor (administrators). */
export function useMfaForced() {
  return useQuery({
    queryKey: settingsKeys.config('mfa-force'),
    queryFn: ({ signal }) => callEndpoint(authApi.mfaForced, {}, { silent: true, signal }),
    retry: false,
  });
}

export function useSetMfaForced() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mfaForceEnable: boolean) =>
      callEndpoint(authApi.setMfaForced, { query: { mfaForceEnable } }),
    onSuccess: (_, on) => queryClient.setQueryData(settingsKeys.config('mfa-force'), on),
  });
}

/** Clears everybody's second factor (the drive's creator): they enrol again. */
export function useResetEveryonesMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resetMfa(),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: authKeys.userInfo }),
        queryClient.invalidateQueries({ queryKey: ['user', 'list'] }),
      ]),
  });
}

/** A picture uploaded into one's Avatars folder becomes one's avatar; answers its file id. */
export function uploadAvatar(file: File, onProgress: (percent: number) => void): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  return callEndpointForm(imagesApi.uploadAvatar, form, onProgress);
}

/** Back to the initial on a colour. */
export const clearAvatar = () => callEndpoint(imagesApi.chooseAvatar);

export const websiteKeys = { setting: ['settings', 'website'] as const };

/** The footer line, the versions kept per file and the retention (administrators). */
export function useWebsiteSetting() {
  return useQuery({
    queryKey: websiteKeys.setting,
    queryFn: ({ signal }) => callEndpoint(settingsApi.website, {}, { signal }),
  });
}

/** Saves some of the website settings; the footer line shows on the public pages. */
export function useSaveWebsiteSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebsiteSettingBody) => callEndpoint(settingsApi.updateWebsite, { body }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(websiteKeys.setting, saved);
      await queryClient.invalidateQueries({ queryKey: authKeys.websiteRecord });
    },
  });
}

export const versionKeys = { status: ['settings', 'version-status'] as const };

/** This server's version and the newest release its update feed announced (administrators). */
export function useVersionStatus(enabled: boolean) {
  return useQuery({
    queryKey: versionKeys.status,
    queryFn: ({ signal }) => callEndpoint(healthApi.latestVersion, {}, { signal }),
    enabled,
  });
}
