import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSafeStorage } from './storage';

/** A Storage over a Map: what the browser's localStorage does, minus the browser. */
function memoryStorage(initial: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(initial));
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, String(value)),
  };
}

describe('persisted state storage (spec §3)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads back what it wrote', () => {
    const backing = memoryStorage();
    const storage = createSafeStorage<{ lang: string }>(() => backing);
    storage.setItem('app', { state: { lang: 'zh_CN' }, version: 1 });
    expect(storage.getItem('app')).toEqual({ state: { lang: 'zh_CN' }, version: 1 });
  });

  it.each([['{not json'], ['"a string"'], ['[1,2]'], ['{"version":1}'], ['{"state":null}']])(
    'discards %s with an error logged',
    (raw) => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const backing = memoryStorage({ store: raw });
      const storage = createSafeStorage(() => backing);
      expect(storage.getItem('store')).toBeNull();
      expect(backing.getItem('store')).toBeNull();
      expect(error).toHaveBeenCalledOnce();
    },
  );

  it('works without any storage', () => {
    const storage = createSafeStorage(() => null);
    expect(storage.getItem('app')).toBeNull();
    expect(() => storage.setItem('app', { state: {}, version: 1 })).not.toThrow();
  });
});
