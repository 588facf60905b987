import { randomUUID } from 'node:crypto';
import { DavError, locked, preconditionFailed } from './webdav-errors.ts';
import { ancestorsOf, isWithin, splitPath } from './webdav-headers.ts';
import type { LockRow, WebdavRepo } from './webdav.repo.ts';

export type { LockRow };

/** Locks one user may hold at once. */
export const MAX_LOCKS_PER_USER = 10_000;

/** How a write touches the tree, for the locks that protect it. */
export interface WriteScope {
  /** The item's path. */
  path: string;
  /** A name appears in or leaves its folder (new file, new folder, delete, move away). */
  membership: boolean;
  /** Everything under the item changes too (deleting or moving a folder). */
  below: boolean;
}

/**
 * Write locks (RFC 4918 §6–7), kept in the database so every node sees them. A lock covers its
 * item, and with depth infinity everything under it; a write to a covered item needs one of the
 * covering locks' tokens in its If header.
 */
export class DavLocks {
  private lastPrune = 0;

  constructor(private readonly repo: WebdavRepo) {}

  /** Locks in force on the path or on a folder above it with depth infinity. */
  async covering(userId: string, path: string): Promise<LockRow[]> {
    const rows = await this.repo.locksAround(userId, path, ancestorsOf(path), false, Date.now());
    return rows.filter((l) => l.path === path || l.deep === 1);
  }

  /** Locks in force on the path, above it with depth infinity, and under it (a listing). */
  async around(userId: string, path: string): Promise<LockRow[]> {
    const rows = await this.repo.locksAround(userId, path, ancestorsOf(path), true, Date.now());
    return rows.filter((l) => isWithin(l.path, path) || l.deep === 1);
  }

  /** Refuse (423) a write unless the request holds a token of each lock protecting it. */
  async assertMayWrite(userId: string, scope: WriteScope, submitted: Set<string>): Promise<void> {
    const { parent } = splitPath(scope.path);
    const ancestors = ancestorsOf(scope.path);
    const rows = await this.repo.locksAround(
      userId,
      scope.path,
      ancestors,
      scope.below,
      Date.now(),
    );
    const protecting = rows.filter(
      (l) =>
        l.path === scope.path ||
        (l.deep === 1 && ancestors.includes(l.path)) ||
        (scope.membership && l.path === parent && scope.path !== '/') ||
        (scope.below && isWithin(l.path, scope.path)),
    );
    // one token opens a lock; locks held on different items each need theirs
    const byPath = new Map<string, LockRow[]>();
    for (const l of protecting) byPath.set(l.path, [...(byPath.get(l.path) ?? []), l]);
    for (const [path, locks] of byPath)
      if (!locks.some((l) => submitted.has(l.token)))
        throw locked(`"${path}" is locked; send its lock token`);
  }

  /** A new lock, refused (423) when it would meet an exclusive one or be exclusive beside one. */
  async lock(
    userId: string,
    path: string,
    options: { deep: boolean; exclusive: boolean; owner: string | null; timeoutSeconds: number },
  ): Promise<LockRow> {
    await this.prune();
    const rows = await this.repo.locksAround(
      userId,
      path,
      ancestorsOf(path),
      options.deep,
      Date.now(),
    );
    const clashing = rows.filter(
      (l) =>
        l.path === path ||
        (l.deep === 1 && isWithin(path, l.path)) ||
        (options.deep && isWithin(l.path, path)),
    );
    if (clashing.some((l) => options.exclusive || l.exclusive === 1))
      throw new DavError(423, 'The item is already locked', 'no-conflicting-lock');
    if ((await this.repo.countLocks(userId, Date.now())) >= MAX_LOCKS_PER_USER)
      throw new DavError(503, 'Too many locks are held; unlock some first');
    const row: LockRow = {
      token: `opaquelocktoken:${randomUUID()}`,
      userId,
      path,
      deep: options.deep ? 1 : 0,
      exclusive: options.exclusive ? 1 : 0,
      owner: options.owner,
      timeoutSeconds: options.timeoutSeconds,
      expiresAt: Date.now() + options.timeoutSeconds * 1000,
    };
    await this.repo.insertLock(row);
    return row;
  }

  /** A LOCK without a body: the submitted token's lock covering the path lives longer. */
  async refresh(
    userId: string,
    path: string,
    submitted: Set<string>,
    timeoutSeconds: number,
  ): Promise<LockRow> {
    const lock = (await this.covering(userId, path)).find((l) => submitted.has(l.token));
    if (!lock) throw preconditionFailed('No lock of this item was named in the If header');
    const expiresAt = Date.now() + timeoutSeconds * 1000;
    await this.repo.refreshLock(lock.token, timeoutSeconds, expiresAt);
    return { ...lock, timeoutSeconds, expiresAt };
  }

  async unlock(userId: string, path: string, token: string): Promise<void> {
    const lock = (await this.covering(userId, path)).find((l) => l.token === token);
    if (!lock)
      throw new DavError(
        409,
        'This lock does not cover the item',
        'lock-token-matches-request-uri',
      );
    await this.repo.deleteLock(userId, token);
  }

  /** The item (and what was under it) left this path: its locks go. */
  release(userId: string, path: string): Promise<void> {
    return this.repo.deleteLocksAt(userId, path);
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < 60_000) return;
    this.lastPrune = Date.now();
    await this.repo.pruneLocks(Date.now());
  }
}
