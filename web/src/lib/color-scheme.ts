import { useLocation } from 'react-router';
import { useSessionStore } from '../stores/session';
import { isSharePath } from './navigation';
import { resolveColorScheme, useSystemColorScheme, type ColorScheme } from './theme';

/**
 * The colour scheme in effect: the chosen theme, with "auto" following the system, except that
 * public share pages default to light for visitors (spec §1).
 */
export function useColorScheme(): ColorScheme {
  const { pathname } = useLocation();
  const theme = useSessionStore((s) => s.theme);
  const token = useSessionStore((s) => s.token);
  const system = useSystemColorScheme();
  if (theme === 'auto' && isSharePath(pathname) && !token) return 'light';
  return resolveColorScheme(theme, system);
}
