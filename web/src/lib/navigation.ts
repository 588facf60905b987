import type { Device } from '../stores/app';

export interface GuardLocation {
  pathname: string;
  search: string;
  hash: string;
}

/** spec §2: without a token only paths containing /login or /s proceed (share pages are public). */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname.startsWith('/login') ||
    pathname === '/s' ||
    pathname.startsWith('/s/') ||
    pathname === '/s_m'
  );
}

export function isSharePath(pathname: string): boolean {
  return pathname === '/s' || pathname.startsWith('/s/') || pathname === '/s_m';
}

/** Only same-app paths are followed after login, never another origin or the login page itself. */
export function safeRedirect(redirect: string | null | undefined): string {
  if (
    !redirect ||
    !redirect.startsWith('/') ||
    redirect.startsWith('//') ||
    redirect.startsWith('/\\')
  )
    return '/';
  if (redirect.startsWith('/login')) return '/';
  return redirect;
}

export function loginRedirect(fullPath: string): string {
  return `/login?redirect=${encodeURIComponent(fullPath)}`;
}

/**
 * The navigation rules of spec §2, in order. Returns where to go instead, or null to proceed.
 * User info is handled by the session gate (it needs a fetch).
 */
export function guardRedirect(
  location: GuardLocation,
  hasToken: boolean,
  device: Device,
): string | null {
  const { pathname, search, hash } = location;
  if (!hasToken && !isPublicPath(pathname)) return loginRedirect(`${pathname}${search}${hash}`);
  // A signed-in user on the login page goes home, or where the login was asked to lead.
  if (hasToken && pathname.startsWith('/login'))
    return safeRedirect(new URLSearchParams(search).get('redirect'));
  if (device === 'mobile') {
    if (pathname === '/') return `/_m${search}`;
    if (pathname === '/s' || pathname === '/s/') return `/s_m${search}`;
  } else {
    if (pathname === '/_m' || pathname === '/home_m') return `/${search}`;
    if (pathname === '/s_m') return `/s${search}`;
  }
  return null;
}
