import { DESIGN_WIDTH, MIN_DESKTOP_WIDTH, MOBILE_BREAKPOINT } from '@nimbus/contract';
import { useEffect } from 'react';
import { useAppStore, type Device } from './app';

const MOBILE_UA = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile|HarmonyOS/i;

export function isMobileUserAgent(
  userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent,
): boolean {
  return MOBILE_UA.test(userAgent);
}

/** spec §2: mobile means a viewport narrower than 992 px (or a mobile browser). */
export function deviceFor(width: number, mobileAgent: boolean): Device {
  return mobileAgent || width < MOBILE_BREAKPOINT ? 'mobile' : 'desktop';
}

/** spec §2: on desktop the root font size scales with the window width against 1920 (min 1366). */
export function rootFontSize(width: number): number {
  return (16 * Math.max(width, MIN_DESKTOP_WIDTH)) / DESIGN_WIDTH;
}

export function currentDevice(): Device {
  return deviceFor(window.innerWidth, isMobileUserAgent());
}

/** Keeps the device state and the root font size in step with the viewport. */
export function useDeviceWatcher(): void {
  useEffect(() => {
    const update = () => {
      // spec §2: device changes are ignored while the page is hidden
      if (document.hidden) return;
      const device = currentDevice();
      const state = useAppStore.getState();
      if (device !== state.device) state.setDevice(device);
      document.documentElement.style.fontSize =
        device === 'desktop' ? `${rootFontSize(window.innerWidth)}px` : '';
    };
    update();
    window.addEventListener('resize', update);
    document.addEventListener('visibilitychange', update);
    return () => {
      window.removeEventListener('resize', update);
      document.removeEventListener('visibilitychange', update);
    };
  }, []);
}
