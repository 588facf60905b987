import { useMemo } from 'react';
import { useUserInfo } from '../api/account';
import type { Authority } from './types';

/** The administrator's grant: every authority (the server answers `*` for administrators). */
export const EVERY_AUTHORITY = '*';

/** The authorities that gate acting on one's files (the menu seed's menuType 1 rows). */
export const FILE_AUTHORITY = {
  upload: 'cloud:file:upload',
  update: 'cloud:file:update',
  delete: 'cloud:file:delete',
  download: 'cloud:file:download',
  share: 'cloud:file:share',
} as const satisfies Record<string, Authority>;

/** Whether a list of granted authorities holds one. */
export function authorityCheck(granted: readonly Authority[]): (authority: Authority) => boolean {
  const held = new Set(granted);
  if (held.has(EVERY_AUTHORITY)) return () => true;
  return (authority) => held.has(authority);
}

/** Whether the signed-in user's role holds an authority (administrators hold every one). */
export function useAuthorityCheck(): (authority: Authority) => boolean {
  const { data: user } = useUserInfo();
  const granted = user?.authorities;
  return useMemo(() => authorityCheck(granted ?? []), [granted]);
}
