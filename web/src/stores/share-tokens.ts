import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { createSafeStorage } from './storage';
import { useSessionStore } from './session';

/** A token from the server, until it expires (the server's lifetime is a day at most). */
interface Remembered {
  token: string;
  savedAt: number;
}

const KEEP_MS = 24 * 3600_000;

interface ShareTokenState {
  /** By share address and id: a visitor may hold the codes of several shares. */
  tokens: Record<string, Remembered>;
  remember: (keys: string[], token: string) => void;
  forget: (keys: string[]) => void;
}

/** The share tokens a visitor earned by entering codes, kept across reloads. */
export const useShareTokens = create<ShareTokenState>()(
  persist(
    (set) => ({
      tokens: {},
      remember: (keys, token) =>
        set((state) => {
          const now = Date.now();
          const tokens = Object.fromEntries(
            Object.entries(state.tokens).filter(([, value]) => now - value.savedAt < KEEP_MS),
          );
          for (const key of keys) if (key) tokens[key] = { token, savedAt: now };
          return { tokens };
        }),
      forget: (keys) =>
        set((state) => {
          const tokens = { ...state.tokens };
          for (const key of keys) delete tokens[key];
          return { tokens };
        }),
    }),
    {
      name: 'shareTokens',
      version: 1,
      storage: createSafeStorage<Pick<ShareTokenState, 'tokens'>>(),
      partialize: ({ tokens }) => ({ tokens }),
    },
  ),
);

export function shareTokenFor(share: string): string | undefined {
  const found = useShareTokens.getState().tokens[share];
  return found && Date.now() - found.savedAt < KEEP_MS ? found.token : undefined;
}

/**
 * The share on screen: its id and token go into the session (spec §3 shareToken, shareId), which
 * the API client sends as the `shareId` and `share-token` headers of every call (spec §6).
 */
export function selectShare(share: string): void {
  const shareToken = shareTokenFor(share) ?? '';
  const current = useSessionStore.getState();
  if (current.shareId !== share || current.shareToken !== shareToken)
    current.setShare({ shareId: share, shareToken });
}
