import type { Language } from '@nimbus/contract';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { browserLanguage, isLanguage } from './language';
import { createSafeStorage, getCookie, setCookie } from './storage';

export type Device = 'desktop' | 'mobile';

interface AppState {
  /** Desktop sidebar expanded; remembered (also in a cookie). */
  sidebar: { opened: boolean };
  /** Mobile drawer open; never remembered, phones start with it shut. */
  drawerOpened: boolean;
  device: Device;
  lang: Language;
  isUploadDragEnabled: boolean;
  setSidebarOpened: (opened: boolean) => void;
  /** Toggles the drawer on mobile, the sidebar on desktop. */
  toggleSidebar: () => void;
  setDrawerOpened: (opened: boolean) => void;
  setDevice: (device: Device) => void;
  setLang: (lang: Language) => void;
  setUploadDragEnabled: (enabled: boolean) => void;
}

type PersistedApp = Pick<AppState, 'sidebar' | 'device' | 'lang' | 'isUploadDragEnabled'>;

const SIDEBAR_COOKIE = 'sidebarStatus';

function writeSidebarCookie(opened: boolean): void {
  setCookie(SIDEBAR_COOKIE, opened ? '1' : '0');
}

/** UI state of the shell, persisted under the `app` key (spec §3). */
export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      sidebar: { opened: getCookie(SIDEBAR_COOKIE) !== '0' },
      device: 'desktop',
      lang: browserLanguage(),
      isUploadDragEnabled: true,
      setSidebarOpened: (opened) => {
        writeSidebarCookie(opened);
        set({ sidebar: { opened } });
      },
      drawerOpened: false,
      setDrawerOpened: (drawerOpened) => set({ drawerOpened }),
      toggleSidebar: () =>
        set((state) => {
          if (state.device === 'mobile') return { drawerOpened: !state.drawerOpened };
          const opened = !state.sidebar.opened;
          writeSidebarCookie(opened);
          return { sidebar: { opened } };
        }),
      setDevice: (device) => set({ device, drawerOpened: false }),
      setLang: (lang) => set({ lang }),
      setUploadDragEnabled: (isUploadDragEnabled) => set({ isUploadDragEnabled }),
    }),
    {
      name: 'app',
      version: 1,
      storage: createSafeStorage<PersistedApp>(),
      // A hand-edited or outdated value falls back to the default instead of breaking the app.
      merge: (persisted, current) => {
        const saved = (persisted ?? {}) as Partial<PersistedApp>;
        return {
          ...current,
          sidebar:
            typeof saved.sidebar?.opened === 'boolean'
              ? { opened: saved.sidebar.opened }
              : current.sidebar,
          device:
            saved.device === 'mobile' || saved.device === 'desktop' ? saved.device : current.device,
          lang: isLanguage(saved.lang) ? saved.lang : current.lang,
          isUploadDragEnabled:
            typeof saved.isUploadDragEnabled === 'boolean'
              ? saved.isUploadDragEnabled
              : current.isUploadDragEnabled,
        };
      },
      partialize: ({ sidebar, device, lang, isUploadDragEnabled }) => ({
        sidebar,
        device,
        lang,
        isUploadDragEnabled,
      }),
    },
  ),
);
