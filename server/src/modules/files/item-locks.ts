import { ErrorCode } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import type { ItemLocksRepo, LockRow } from './item-locks.repo.ts';

/** How a change touches the tree, for the locks that protect it (RFC 4918 §7). */
export interface LockScope {
  /** The item's path in the user's tree: `/a/b.txt`, `/` for the root. */
  path: string;
  /** A name appears in or leaves its folder (a new item, a delete, a move or rename away). */
  membership: boolean;
  /** Everything under the item changes too (deleting, moving or renaming a folder). */
  below: boolean;
}

/** Who changes the tree, and the lock tokens they sent (a WebDAV client's If header). */
export interface LockHolder {
  id: string;
  username: string;
  lockTokens?: ReadonlySet<string>;
}

/** `/a/b.txt` from a row's parent path (`/a/`) and name. */
export const itemPathOf = (row: { path: string; name: string }) => `${row.path}${row.name}`;

/** The scope of a change to an item of the tree. */
export function scopeOf(
  row: { path: string; name: string; isFolder: number },
  change: 'content' | 'membership',
): LockScope {
  const membership = change === 'membership';
  return { path: itemPathOf(row), membership, below: membership && row.isFolder === 1 };
}

/** The scope of a new item `name` in the folder whose rows carry `prefix` (`/a/`). */
export const newItemScope = (prefix: string, name: string): LockScope => ({
  path: `${prefix}${name}`,
  membership: true,
  below: false,
});

/** The folders above a path, the root first: `/a/b/c` → `/`, `/a`, `/a/b`. */
export function ancestorsOf(path: string): string[] {
  if (path === '/') return [];
  const out = ['/'];
  const segments = path.split('/').filter(Boolean);
  for (let i = 1; i < segments.length; i++) out.push(`/${segments.slice(0, i).join('/')}`);
  return out;
}

const parentOf = (path: string) => {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
};
const isWithin = (path: string, folder: string) =>
  folder === '/' || path === folder || path.startsWith(`${folder}/`);

/** The lock's owner as its client described it (`<D:owner>`), as plain text. */
function holderOf(lock: LockRow, username: string): string {
  const text = (lock.owner ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return text || username;
}

/**
 * The one check every change to a user's tree passes, whichever way it comes (the web API, a
 * share's visitor, WebDAV): a lock taken over WebDAV holds the item it is on, and with depth
 * infinity everything under it; a change to a locked item is refused (423) unless the request
 * carries one of the lock's tokens, as a WebDAV client holding the lock does. Metadata that is
 * not the item's content or place (tags, favourites, shares) is not held by locks.
 */
export class ItemLocks {
  constructor(private readonly repo: ItemLocksRepo) {}

  /** Refuse (ITEM_LOCKED, 423) when a lock protects one of these changes and no token opens it. */
  async assertFree(holder: LockHolder, scopes: LockScope[]): Promise<void> {
    const lock = await this.blocking(holder, scopes);
    if (!lock) return;
    const until = new Date(lock.expiresAt).toISOString();
    const who = holderOf(lock, holder.username);
    throw new AppError(
      ErrorCode.ITEM_LOCKED,
      `"${lock.path}" is locked by ${who} over WebDAV until ${until}`,
      { path: lock.path, holder: who, until },
    );
  }

  /** Whether no lock protects these changes (work the server does by itself leaves them). */
  async isFree(holder: LockHolder, scopes: LockScope[]): Promise<boolean> {
    return !(await this.blocking(holder, scopes));
  }

  /** The first lock protecting one of the changes that the holder sent no token of, if any. */
  private async blocking(holder: LockHolder, scopes: LockScope[]): Promise<LockRow | undefined> {
    if (scopes.length === 0) return undefined;
    const held = await this.repo.locksOf(holder.id, Date.now());
    if (held.length === 0) return undefined;
    for (const scope of scopes) {
      const parent = parentOf(scope.path);
      const ancestors = new Set(ancestorsOf(scope.path));
      const protecting = held.filter(
        (l) =>
          l.path === scope.path ||
          (l.deep === 1 && ancestors.has(l.path)) ||
          (scope.membership && l.path === parent && scope.path !== '/') ||
          (scope.below && isWithin(l.path, scope.path)),
      );
      // one token opens a lock; locks held on different items each need theirs
      const byPath = new Map<string, LockRow[]>();
      for (const l of protecting) byPath.set(l.path, [...(byPath.get(l.path) ?? []), l]);
      for (const locks of byPath.values())
        if (!locks.some((l) => holder.lockTokens?.has(l.token))) return locks[0];
    }
    return undefined;
  }
}
