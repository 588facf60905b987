import fsp from 'node:fs/promises';
import type { Db } from '../../db/index.ts';
import { exists } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { LocalTree } from '../../storage/local-tree.ts';
import { JournalRepo, type Intent } from './journal.repo.ts';
import type { SpaceOptions } from './quota.ts';

export type IntentKind = Intent['kind'];

/** The quota's binding check (quota.ts withSpace), for the intents that add bytes. */
export type WithSpace = <T>(
  userId: string,
  bytes: number,
  reserve: (trx: Db) => Promise<T>,
  options: Omit<SpaceOptions, 'trx'>,
) => Promise<T>;

/**
 * The crash journal: a change of disk and database that survives a crash. The intent is
 * written first, then the disk changes, then the database commits and forgets the intent in one
 * transaction. An intent left behind by a crash is rolled back at the next start (recover()).
 */
export class Journal {
  private readonly repo: JournalRepo;

  constructor(
    private readonly db: Db,
    private readonly tree: LocalTree,
    private readonly withSpace: WithSpace,
  ) {
    this.repo = new JournalRepo(db);
  }

  async run<T>(
    userId: string,
    kind: IntentKind,
    from: string,
    to: string,
    disk: () => Promise<void>,
    commit: (trx: Db) => Promise<T>,
    space?: { bytes: number; exceptSession?: string },
  ): Promise<T> {
    if (await this.tree.exists(to)) {
      throw exists('An item with this name is already on disk here; rebuild the index to see it');
    }
    // an operation that adds bytes holds them from its intent to its commit (quota.ts)
    const intent: Intent = { id: newId(), userId, kind, fromPath: from, toPath: to, bytes: 0 };
    if (space) {
      intent.bytes = space.bytes;
      await this.withSpace(userId, space.bytes, (trx) => this.repo.record(intent, trx), {
        exceptSession: space.exceptSession,
      });
    } else await this.repo.record(intent);
    try {
      await disk();
    } catch (err) {
      await this.undo(intent);
      throw err;
    }
    try {
      return await this.db.transaction().execute(async (trx) => {
        const result = await commit(trx);
        await this.repo.forget(intent.id, trx);
        return result;
      });
    } catch (err) {
      await this.undo(intent);
      throw err;
    }
  }

  /** Roll the disk change back and forget the intent. */
  private async undo(intent: { id: string; kind: string; fromPath: string; toPath: string }) {
    if (intent.kind === 'copy') {
      await this.tree.remove(intent.fromPath);
      await this.tree.remove(intent.toPath);
    } else if (
      (await this.tree.exists(intent.toPath)) &&
      !(await this.tree.exists(intent.fromPath))
    ) {
      await this.tree.move(intent.toPath, intent.fromPath);
    }
    await this.repo.forget(intent.id);
  }

  /** Start: undo disk changes whose database commit never happened. */
  async recover(): Promise<number> {
    const left = await this.repo.leftBehind();
    for (const intent of left) await this.undo(intent);
    await this.tree.remove(this.tree.tmpDir);
    await this.tree.init();
    await this.removeOrphanTrash();
    return left.length;
  }

  /** Bytes in the trash whose rows were swept before a crash let the disk follow. */
  private async removeOrphanTrash(): Promise<void> {
    for (const user of await fsp.readdir(this.tree.trashDir).catch(() => [] as string[])) {
      const entries = await fsp
        .readdir(this.tree.trashPathOf(user, ''))
        .catch(() => [] as string[]);
      for (let i = 0; i < entries.length; i += 500) {
        const batch = entries.slice(i, i + 500);
        const keep = await this.repo.trashedAmong(batch);
        for (const name of batch)
          if (!keep.has(name)) await this.tree.remove(this.tree.trashPathOf(user, name));
      }
    }
  }
}
