import { THEMES, TOKEN_HEADER, type Theme } from '@nimbus/contract';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { createSafeStorage, setApiCookie } from './storage';

/** A file the user copied or cut inside the app (the FileClipboard tray). */
export interface ClipboardItem {
  id: string;
  name: string;
  path: string;
  isFolder: boolean;
}

interface SessionState {
  token: string;
  username: string;
  userId: string;
  shareToken: string;
  shareId: string;
  theme: Theme;
  fileClipboard: ClipboardItem[];
  message: string;
  setSession: (session: { token: string; username: string; userId: string }) => void;
  setToken: (token: string) => void;
  resetToken: () => void;
  setShare: (share: { shareToken: string; shareId: string }) => void;
  setTheme: (theme: Theme) => void;
  setFileClipboard: (items: ClipboardItem[]) => void;
}

type PersistedSession = Omit<
  SessionState,
  'setSession' | 'setToken' | 'resetToken' | 'setShare' | 'setTheme' | 'setFileClipboard'
>;

/**
 * Clipboards longer than this stay in the tab only: local storage holds about 5 MB, and a
 * whole folder on the clipboard (select all, copy) would not fit beside the session.
 */
export const CLIPBOARD_PERSIST_MAX = 5000;

/** Session and shared state, persisted under the `store` key (spec §3). */
export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      token: '',
      username: '',
      userId: '',
      shareToken: '',
      shareId: '',
      theme: 'auto',
      fileClipboard: [],
      message: '',
      setSession: ({ token, username, userId }) => set({ token, username, userId }),
      setToken: (token) => set({ token }),
      resetToken: () => set({ token: '', username: '', userId: '', fileClipboard: [] }),
      setShare: ({ shareToken, shareId }) => set({ shareToken, shareId }),
      setTheme: (theme) => set({ theme }),
      setFileClipboard: (fileClipboard) => set({ fileClipboard }),
    }),
    {
      name: 'store',
      version: 1,
      storage: createSafeStorage<PersistedSession>(),
      merge: (persisted, current) => {
        const saved = (persisted ?? {}) as Partial<PersistedSession>;
        const text = (value: unknown, fallback: string) =>
          typeof value === 'string' ? value : fallback;
        return {
          ...current,
          token: text(saved.token, current.token),
          username: text(saved.username, current.username),
          userId: text(saved.userId, current.userId),
          shareToken: text(saved.shareToken, current.shareToken),
          shareId: text(saved.shareId, current.shareId),
          message: text(saved.message, current.message),
          theme: (THEMES as readonly unknown[]).includes(saved.theme)
            ? (saved.theme as Theme)
            : current.theme,
          fileClipboard: Array.isArray(saved.fileClipboard)
            ? saved.fileClipboard
            : current.fileClipboard,
        };
      },
      partialize: ({
        token,
        username,
        userId,
        shareToken,
        shareId,
        theme,
        fileClipboard,
        message,
      }) => ({
        token,
        username,
        userId,
        shareToken,
        shareId,
        theme,
        fileClipboard: fileClipboard.length > CLIPBOARD_PERSIST_MAX ? [] : fileClipboard,
        message,
      }),
    },
  ),
);

export const getToken = (): string => useSessionStore.getState().token;

// the byte routes' cookie follows the token: signed in, refreshed, signed out
setApiCookie(TOKEN_HEADER, useSessionStore.getState().token);
useSessionStore.subscribe((state, before) => {
  if (state.token !== before.token) setApiCookie(TOKEN_HEADER, state.token);
});
