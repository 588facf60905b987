import type { PersistStorage, StorageValue } from 'zustand/middleware';

/** The browser's localStorage, or null where it is unavailable (private modes, sandboxed frames). */
export function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * A zustand persist storage over a Storage that discards what it cannot read: corrupted JSON,
 * or JSON that is not a persisted state object, is removed with an error logged (spec §3).
 */
export function createSafeStorage<S>(
  getStorage: () => Storage | null = browserStorage,
): PersistStorage<S> {
  return {
    getItem(name) {
      const storage = getStorage();
      if (!storage) return null;
      let raw: string | null;
      try {
        raw = storage.getItem(name);
      } catch {
        return null;
      }
      if (raw === null) return null;
      try {
        const parsed: unknown = JSON.parse(raw);
        if (!isStorageValue(parsed)) throw new Error('not a persisted state object');
        return parsed as StorageValue<S>;
      } catch (error) {
        console.error(`Discarding corrupted local storage key "${name}"`, error);
        try {
          storage.removeItem(name);
        } catch {
          // nothing more we can do
        }
        return null;
      }
    },
    setItem(name, value) {
      try {
        getStorage()?.setItem(name, JSON.stringify(value));
      } catch (error) {
        console.error(`Could not save local storage key "${name}"`, error);
      }
    },
    removeItem(name) {
      try {
        getStorage()?.removeItem(name);
      } catch {
        // ignore
      }
    },
  };
}

function isStorageValue(value: unknown): value is StorageValue<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    'state' in value &&
    typeof value.state === 'object' &&
    value.state !== null
  );
}

/** Plain string values in localStorage (drive name, logo, task-progress flag). */
export const localValue = {
  get(key: string): string | null {
    try {
      return browserStorage()?.getItem(key) ?? null;
    } catch {
      return null;
    }
  },
  set(key: string, value: string | null): void {
    try {
      const storage = browserStorage();
      if (value === null) storage?.removeItem(key);
      else storage?.setItem(key, value);
    } catch {
      // storage full or unavailable: the value simply is not remembered
    }
  },
};

export function setCookie(name: string, value: string, days = 365): void {
  if (typeof document === 'undefined') return;
  const expires = new Date(Date.now() + days * 864e5).toUTCString();
  document.cookie = `${name}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax`;
}

export function getCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const prefix = `${name}=`;
  for (const part of document.cookie.split('; ')) {
    if (part.startsWith(prefix)) return decodeURIComponent(part.slice(prefix.length));
  }
  return null;
}

/**
 * The session's token as a cookie for the API's byte routes only (`path=/api`, same site only):
 * what `<img>` in a rendered document needs, where no header or query can be added. The server
 * honours it on GET routes that serve bytes, nowhere else.
 */
export function setApiCookie(name: string, value: string): void {
  if (typeof document === 'undefined') return;
  document.cookie = value
    ? `${name}=${encodeURIComponent(value)}; path=/api; SameSite=Strict`
    : `${name}=; path=/api; SameSite=Strict; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}
