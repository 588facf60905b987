import type { SavedUpload } from './types';

/**
 * The upload queue kept in IndexedDB, so a reload can offer to resume: names, sizes, dates,
 * paths, target folders and identifiers, never file contents. Without IndexedDB nothing is
 * remembered and uploads still work.
 */
const DB_NAME = 'nimbus-uploads';
const STORE = 'queue';

let opening: Promise<IDBDatabase | null> | null = null;

function openDb(): Promise<IDBDatabase | null> {
  if (opening) return opening;
  opening = new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') {
      resolve(null);
      return;
    }
    let req: IDBOpenDBRequest;
    try {
      req = indexedDB.open(DB_NAME, 1);
    } catch (error) {
      console.error('The upload queue cannot be remembered', error);
      resolve(null);
      return;
    }
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, { keyPath: 'id' });
      store.createIndex('username', 'username');
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => {
      console.error('The upload queue cannot be remembered', req.error);
      resolve(null);
    };
    req.onblocked = () => resolve(null);
  });
  return opening;
}

async function withStore(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => void,
): Promise<void> {
  const db = await openDb();
  if (!db) return;
  await new Promise<void>((resolve) => {
    try {
      const tx = db.transaction(STORE, mode);
      work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve();
      tx.onerror = () => {
        console.error('Could not update the upload queue', tx.error);
        resolve();
      };
      tx.onabort = () => resolve();
    } catch (error) {
      console.error('Could not update the upload queue', error);
      resolve();
    }
  });
}

export function saveUploads(items: readonly SavedUpload[]): Promise<void> {
  if (!items.length) return Promise.resolve();
  return withStore('readwrite', (store) => {
    for (const item of items) store.put(item);
  });
}

export function forgetUploads(ids: readonly string[]): Promise<void> {
  if (!ids.length) return Promise.resolve();
  return withStore('readwrite', (store) => {
    for (const id of ids) store.delete(id);
  });
}

function isSaved(value: unknown): value is SavedUpload {
  const v = value as Partial<SavedUpload> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'string' &&
    typeof v.name === 'string' &&
    typeof v.size === 'number' &&
    typeof v.lastModified === 'number' &&
    typeof v.relativePath === 'string' &&
    typeof v.currentDirectory === 'string'
  );
}

/** The remembered uploads of one user, oldest first. */
export async function loadUploads(username: string): Promise<SavedUpload[]> {
  const db = await openDb();
  if (!db) return [];
  return new Promise((resolve) => {
    try {
      const req = db
        .transaction(STORE, 'readonly')
        .objectStore(STORE)
        .index('username')
        .getAll(username);
      req.onsuccess = () => {
        const rows = (req.result as unknown[]).filter(isSaved);
        resolve(rows.sort((a, b) => (a.addedAt ?? 0) - (b.addedAt ?? 0)));
      };
      req.onerror = () => resolve([]);
    } catch {
      resolve([]);
    }
  });
}
