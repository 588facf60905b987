import type { Db } from '../../db/index.ts';
import type { Presence } from '../../db/presence.ts';
import { exists } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { inPool } from '../../lib/pool.ts';
import type { BlobStore, Place } from '../../storage/blob-store.ts';
import { JournalRepo, type Intent } from './journal.repo.ts';
import type { SpaceOptions } from './quota.ts';

export type IntentKind = Intent['kind'];

/** One item's bytes going from one place to another. */
export interface Move {
  from: Place;
  to: Place;
}

/**
 * The places of an intent as kept in the journal: one item's as two paths; a selection's as two
 * JSON lists of paths, in the same order (a place is absolute, so never starts with `[`).
 */
function intentOf(moves: Move[]): Pick<Intent, 'fromPath' | 'toPath'> {
  return {
    fromPath: JSON.stringify(moves.map((m) => m.from)),
    toPath: JSON.stringify(moves.map((m) => m.to)),
  };
}

function movesOf(intent: { fromPath: string; toPath: string }): Move[] {
  // places are kept as text in the journal
  if (!intent.fromPath.startsWith('['))
    return [{ from: intent.fromPath as Place, to: intent.toPath as Place }];
  const froms = JSON.parse(intent.fromPath) as Place[];
  const tos = JSON.parse(intent.toPath) as Place[];
  return froms.map((from, i) => ({ from, to: tos[i]! }));
}

/** The quota's binding check (quota.ts withSpace), for the intents that add bytes. */
export type WithSpace = <T>(
  userId: string,
  bytes: number,
  reserve: (trx: Db) => Promise<T>,
  options: Omit<SpaceOptions, 'trx'>,
) => Promise<T>;

/** At a start, how often and how far apart changes left behind are looked at again. */
const BOOT_RETRIES = 5;
const BOOT_RETRY_MS = 100;

/**
 * The crash journal: a change of disk and database that survives a crash. The intent is
 * written first, then the disk changes, then the database commits and forgets the intent in one
 * transaction. An intent left behind by a crash is rolled back once its node is gone (recover()):
 * at the next start, or by another node sharing the database (undoGone()).
 */
export class Journal {
  private readonly repo: JournalRepo;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly withSpace: WithSpace,
    private readonly presence: Presence,
    /** Runs work under the user's lock (two nodes never undo one intent together). */
    private readonly serialise: <T>(userId: string, work: () => Promise<T>) => Promise<T>,
  ) {
    this.repo = new JournalRepo(db, presence.node);
  }

  async run<T>(
    userId: string,
    kind: IntentKind,
    from: Place,
    to: Place,
    disk: () => Promise<void>,
    commit: (trx: Db) => Promise<T>,
    space?: { bytes: number; exceptSession?: string },
  ): Promise<T> {
    if (await this.blobs.exists(to)) {
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
    return this.carryOut(intent, disk, commit);
  }

  /**
   * A change of a selection: one intent for every item, each item's bytes moved once (a
   * folder's go with it), then one transaction. A crash or a failure part-way moves back
   * whatever had moved. No item may go where another comes from.
   */
  async runMany<T>(
    userId: string,
    kind: Exclude<IntentKind, 'copy'>,
    moves: Move[],
    commit: (trx: Db) => Promise<T>,
  ): Promise<T> {
    const taken = await this.blobs.taken(moves.map((m) => m.to));
    if (taken.some(Boolean)) {
      throw exists('An item with this name is already on disk here; rebuild the index to see it');
    }
    const intent: Intent = { ...intentOf(moves), id: newId(), userId, kind, bytes: 0 };
    await this.repo.record(intent);
    return this.carryOut(intent, () => inPool(moves, (m) => this.blobs.move(m.from, m.to)), commit);
  }

  /**
   * A copy of a selection: one intent for every item, each item's bytes copied to its own
   * staging place and then renamed into its target, then one transaction; the bytes added are
   * held from the intent to its commit (the binding quota check). A crash or a failure
   * part-way removes every staged and placed copy.
   */
  async runCopies<T>(
    userId: string,
    copies: Array<{ source: Place; staged: Place; to: Place }>,
    bytes: number,
    commit: (trx: Db) => Promise<T>,
  ): Promise<T> {
    const taken = await this.blobs.taken(copies.map((c) => c.to));
    if (taken.some(Boolean)) {
      throw exists('An item with this name is already on disk here; rebuild the index to see it');
    }
    const intent: Intent = {
      ...intentOf(copies.map((c) => ({ from: c.staged, to: c.to }))),
      id: newId(),
      userId,
      kind: 'copy',
      bytes,
    };
    await this.withSpace(userId, bytes, (trx) => this.repo.record(intent, trx), {});
    return this.carryOut(
      intent,
      () =>
        inPool(copies, async (c) => {
          await this.blobs.copy(c.source, c.staged);
          await this.blobs.move(c.staged, c.to);
        }),
      commit,
    );
  }

  /**
   * A recorded intent carried out: its disk step, then its rows and the intent's end in one
   * transaction. Either failing moves the disk back; a crash leaves the intent for the boot.
   */
  private async carryOut<T>(
    intent: Intent,
    disk: () => Promise<unknown>,
    commit: (trx: Db) => Promise<T>,
  ): Promise<T> {
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
    const moves = movesOf(intent);
    if (intent.kind === 'copy') {
      await inPool(moves, async ({ from, to }) => {
        await this.blobs.remove(from);
        await this.blobs.remove(to);
      });
    } else {
      await inPool(moves, async ({ from, to }) => {
        if ((await this.blobs.exists(to)) && !(await this.blobs.exists(from)))
          await this.blobs.move(to, from);
      });
    }
    await this.repo.forget(intent.id);
  }

  /** Start: undo disk changes whose database commit never happened. `owners`: every username. */
  async recover(owners: string[]): Promise<number> {
    let undone = await this.undoGone();
    // a node killed just now may still read as present for a moment (its connection's end not
    // yet noticed by the database): changes left behind are looked at again, briefly
    for (let i = 0; i < BOOT_RETRIES && (await this.repo.anyUnderWay()); i++) {
      await new Promise((resolve) => setTimeout(resolve, BOOT_RETRY_MS));
      undone += await this.undoGone();
    }
    await this.removeOrphanTrash(owners);
    return undone;
  }

  /**
   * Undo the changes left behind by nodes that are gone (killed, crashed), the newest first;
   * those of nodes still working are theirs to finish. Each under its user's lock, so the user's
   * next change waits, and only while still recorded, so two nodes never undo one change twice.
   */
  async undoGone(): Promise<number> {
    const left = await this.repo.leftBehind();
    if (left.length === 0) return 0;
    const gone = await this.presence.gone([...new Set(left.map((i) => i.node))]);
    let undone = 0;
    for (const intent of left.filter((i) => gone.has(i.node)))
      await this.serialise(intent.userId, async () => {
        if (!(await this.repo.recorded(intent.id))) return;
        await this.undo(intent);
        undone += 1;
      });
    return undone;
  }

  /** Bytes in the trash whose rows were swept before a crash let the disk follow. */
  private async removeOrphanTrash(owners: string[]): Promise<void> {
    for (const user of owners) {
      const entries = (await this.blobs.list(this.blobs.trashRoot(user))).map((e) => e.name);
      for (let i = 0; i < entries.length; i += 500) {
        const batch = entries.slice(i, i + 500);
        // listed, then asked in this order: an item moved into the trash by a change under way
        // (on another node) is still an intent now, or its row is committed by the time the rows
        // are read; left for a later start while any change is under way
        if (await this.repo.anyUnderWay()) return;
        const keep = await this.repo.trashedAmong(batch);
        for (const name of batch)
          if (!keep.has(name)) await this.blobs.remove(this.blobs.trashed(user, name));
      }
    }
  }
}
