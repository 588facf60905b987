import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { liveEvents } from '../../api/events';
import { loginRedirect } from '../../app/navigation';
import { useSessionStore } from '../../stores/session';
import { logoutRequest, type LoginOutcome } from './api';

/** Only same-app paths are followed after login, never another origin. */
export function safeRedirect(redirect: string | null | undefined): string {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return '/';
  if (redirect.startsWith('/login')) return '/';
  return redirect;
}


export function useSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (outcome: Extract<LoginOutcome, { kind: 'session' }>, redirect: string | null) => {
      queryClient.removeQueries({ queryKey: ['user'] });
      queryClient.removeQueries({ queryKey: ['menu'] });
      useSessionStore.getState().setSession(outcome);
      void navigate(safeRedirect(redirect), { replace: true });
    },
    [navigate, queryClient],
  );
}

/** spec §4: logout calls the server, then clears stored state and goes to /login?redirect=<here>. */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(async () => {
    const here = `${location.pathname}${location.search}${location.hash}`;
    try {
      await logoutRequest();
    } catch {
      // The local session ends whatever the server says.
    }
    liveEvents.disconnect();
    useSessionStore.getState().resetToken();
    queryClient.clear();
    void navigate(loginRedirect(here), { replace: true });
  }, [location.hash, location.pathname, location.search, navigate, queryClient]);
}
