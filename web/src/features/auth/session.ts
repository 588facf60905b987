import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { liveEvents } from '../../api/events';
import { loginRedirect } from '../../lib/navigation';
import { useSessionStore } from '../../stores/session';
import { logoutRequest, type LoginOutcome } from './api';

export function useSignIn() {
  const queryClient = useQueryClient();
  return useCallback(
    (outcome: Extract<LoginOutcome, { kind: 'session' }>) => {
      queryClient.removeQueries({ queryKey: ['user'] });
      queryClient.removeQueries({ queryKey: ['menu'] });
      // The navigation guard then leaves the login page for its `redirect` (or home).
      useSessionStore.getState().setSession(outcome);
    },
    [queryClient],
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
