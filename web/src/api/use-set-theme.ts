import type { Theme } from '@nimbus/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { UserInfo } from '@nimbus/contract';
import { authKeys, savePersonalization } from './account';
import { useSessionStore } from '../stores/session';

/** Applies a theme at once and, when signed in, saves it as the user's personalization. */
export function useSetTheme() {
  const queryClient = useQueryClient();
  return useCallback(
    (theme: Theme) => {
      const { token, setTheme } = useSessionStore.getState();
      setTheme(theme);
      if (!token) return;
      queryClient.setQueryData<UserInfo>(authKeys.userInfo, (user) =>
        user ? { ...user, personalization: { ...user.personalization, theme } } : user,
      );
      savePersonalization({ theme }).catch(() => {
        // the client already told the user; the local choice stays
      });
    },
    [queryClient],
  );
}
