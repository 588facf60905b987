import { DEFAULT_DRIVE_NAME } from '@nimbus/contract';
import { useEffect } from 'react';
import { useUserInfo, useWebsiteRecord } from './account';
import { localValue } from '../stores/storage';

const NAME_KEY = 'netdiskName';
const LOGO_KEY = 'netdiskLogo';
export const DEFAULT_LOGO = '/logo.svg';

/** A logo value usable as an image source: absolute, root-relative or data URLs only. */
export function logoSource(logo: string | null | undefined): string | null {
  if (!logo) return null;
  return /^(https?:\/\/|data:image\/|\/)/i.test(logo) ? logo : null;
}

export interface Branding {
  name: string;
  logo: string;
}

/**
 * Drive name and logo: the user's info when signed in, else the public website record, else what
 * was remembered in local storage (spec §3), else the defaults. The logo is also the favicon.
 */
export function useBranding(): Branding {
  const { data: user } = useUserInfo();
  const { data: record } = useWebsiteRecord();
  const name =
    user?.netdiskName || record?.netdiskName || localValue.get(NAME_KEY) || DEFAULT_DRIVE_NAME;
  const logo =
    logoSource(user?.netdiskLogo) ??
    logoSource(record?.netdiskLogo) ??
    logoSource(localValue.get(LOGO_KEY)) ??
    DEFAULT_LOGO;

  useEffect(() => {
    const fetchedName = user?.netdiskName || record?.netdiskName;
    if (fetchedName) localValue.set(NAME_KEY, fetchedName);
    const fetchedLogo = logoSource(user?.netdiskLogo) ?? logoSource(record?.netdiskLogo);
    if (user || record) localValue.set(LOGO_KEY, fetchedLogo);
  }, [user, record]);

  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link#app-favicon');
    if (link && link.getAttribute('href') !== logo) {
      link.href = logo;
      link.type = logo.endsWith('.svg') ? 'image/svg+xml' : '';
    }
  }, [logo]);

  return { name, logo };
}
