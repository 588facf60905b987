import type { Theme } from '@nimbus/contract';
import { useSyncExternalStore } from 'react';

export type ColorScheme = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The system colour scheme, live (theme "auto" follows it). */
export function useSystemColorScheme(): ColorScheme {
  return useSyncExternalStore(
    subscribe,
    () => (window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light'),
    () => 'light',
  );
}

export function resolveColorScheme(theme: Theme, system: ColorScheme): ColorScheme {
  return theme === 'auto' ? system : theme;
}

export const BRAND_COLOR = '#3d6dfa';
