import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { UploadSessionTable } from '../../db/schema.ts';

export type UploadSession = Selectable<UploadSessionTable>;

/** Every query of the upload module: its sessions and the chunks they have received. */
export class UploadRepo {
  constructor(private readonly db: Db) {}

  // ---- sessions -------------------------------------------------------------------------------

  find(id: string): Promise<UploadSession | undefined> {
    return this.db.selectFrom('uploadSession').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertSession(trx: Db, session: UploadSession): Promise<void> {
    await trx.insertInto('uploadSession').values(session).execute();
  }

  /**
   * The uploads under way into a share of `ownerId` that are still active (one visitor's when
   * `visitor` is given): how many, and the bytes they reserve.
   */
  async visitorActivity(
    trx: Db,
    q: { ownerId: string; shareId: string; exceptId: string; since: number; visitor?: string },
  ): Promise<{ n: number; bytes: number }> {
    let query = trx
      .selectFrom('uploadSession')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>('totalSize').as('bytes'),
      ])
      .where('userId', '=', q.ownerId)
      .where('shareId', '=', q.shareId)
      .where('state', 'in', ['uploading', 'merging'])
      .where('updatedAt', '>=', q.since)
      .where('id', '!=', q.exceptId);
    if (q.visitor !== undefined) query = query.where('visitor', '=', q.visitor);
    const row = await query.executeTakeFirstOrThrow();
    return { n: Number(row.n), bytes: Number(row.bytes ?? 0) };
  }

  /** The latest session of one file of one user (through one share, or their own). */
  latestOf(q: {
    userId: string;
    identifier: string;
    filename: string;
    targetPath: string;
    totalSize: number;
    shareId: string | null;
  }): Promise<UploadSession | undefined> {
    return this.db
      .selectFrom('uploadSession')
      .selectAll()
      .where('userId', '=', q.userId)
      .where('identifier', '=', q.identifier)
      .where('filename', '=', q.filename)
      .where('targetPath', '=', q.targetPath)
      .where('totalSize', '=', q.totalSize)
      .where('shareId', q.shareId === null ? 'is' : '=', q.shareId)
      .orderBy('updatedAt', 'desc')
      .executeTakeFirst();
  }

  async touch(id: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('uploadSession')
      .set({ updatedAt: now })
      .where('id', '=', id)
      .execute();
  }

  /** The session is merging; `clearJob` forgets the task of an earlier merge. */
  async setMerging(id: string, clearJob = false, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('uploadSession')
      .set(
        clearJob
          ? { state: 'merging', jobId: null, updatedAt: now }
          : { state: 'merging', updatedAt: now },
      )
      .where('id', '=', id)
      .execute();
  }

  /** The merge task of a session still merging. */
  async setJob(id: string, jobId: string): Promise<void> {
    await this.db
      .updateTable('uploadSession')
      .set({ jobId })
      .where('id', '=', id)
      .where('state', '=', 'merging')
      .execute();
  }

  /** A failed background merge: the reason stays for the next merge request. */
  async setFailed(id: string, message: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('uploadSession')
      .set({ state: 'failed', message: message.slice(0, 500), updatedAt: now })
      .where('id', '=', id)
      .execute();
  }

  async setDone(trx: Db, id: string, fileId: string, now = Date.now()): Promise<void> {
    await trx
      .updateTable('uploadSession')
      .set({ state: 'done', fileId, updatedAt: now })
      .where('id', '=', id)
      .execute();
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.deleteFrom('uploadSession').where('id', '=', id).execute();
  }

  /** A user's uploads under way, newest first, with the name of the share a visitor used. */
  activeOf(userId: string) {
    return this.db
      .selectFrom('uploadSession as s')
      .leftJoin('share as sh', 'sh.id', 's.shareId')
      .leftJoin('file as f', 'f.id', 'sh.fileId')
      .select([
        's.id',
        's.filename',
        's.targetPath',
        's.totalSize',
        's.chunkSize',
        's.totalChunks',
        's.state',
        's.shareId',
        's.visitor',
        's.createdAt',
        's.updatedAt',
        'f.name as shareName',
      ])
      .where('s.userId', '=', userId)
      .where('s.state', 'in', ['uploading', 'merging'])
      .orderBy('s.updatedAt', 'desc')
      .limit(1000)
      .execute();
  }

  /** Sessions abandoned, visitors' idle too long, and finished ones kept long enough. */
  stale(q: { now: number; abandonedMs: number; visitorIdleMs: number; doneMs: number }) {
    return this.db
      .selectFrom('uploadSession')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('updatedAt', '<', q.now - q.abandonedMs),
          eb.and([
            eb('shareId', 'is not', null),
            eb('state', 'in', ['uploading', 'failed']),
            eb('updatedAt', '<', q.now - q.visitorIdleMs),
          ]),
          eb.and([eb('state', '=', 'done'), eb('updatedAt', '<', q.now - q.doneMs)]),
        ]),
      )
      .execute();
  }

  /** Which of these ids are sessions. */
  async existing(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('uploadSession')
      .select('id')
      .where('id', 'in', ids)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  // ---- chunks ---------------------------------------------------------------------------------

  /** The chunks whose bytes are written, in order (from `from` on). */
  async doneChunks(sessionId: string, from = 1): Promise<number[]> {
    const rows = await this.db
      .selectFrom('uploadChunk')
      .select('number')
      .where('sessionId', '=', sessionId)
      .where('number', '>=', from)
      .where('done', '=', 1)
      .orderBy('number')
      .execute();
    return rows.map((r) => r.number);
  }

  async countDone(sessionId: string): Promise<number> {
    const row = await this.db
      .selectFrom('uploadChunk')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sessionId', '=', sessionId)
      .where('done', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Claim a chunk for writing; false when a row for it is there already. */
  async claimChunk(sessionId: string, number: number, node: string): Promise<boolean> {
    const r = await this.db
      .insertInto('uploadChunk')
      .values({ sessionId, number, done: 0, node })
      .onConflict((oc) => oc.columns(['sessionId', 'number']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Who holds a chunk's claim, and whether its bytes are written. */
  chunkClaim(sessionId: string, number: number) {
    return this.db
      .selectFrom('uploadChunk')
      .select(['done', 'node'])
      .where('sessionId', '=', sessionId)
      .where('number', '=', number)
      .executeTakeFirst();
  }

  /** The claim of a gone node, taken by `node`; false when someone else was quicker. */
  async takeOverClaim(
    sessionId: string,
    number: number,
    from: string | null,
    node: string,
  ): Promise<boolean> {
    const r = await this.db
      .updateTable('uploadChunk')
      .set({ node })
      .where('sessionId', '=', sessionId)
      .where('number', '=', number)
      .where('done', '=', 0)
      .where((eb) => (from === null ? eb('node', 'is', null) : eb('node', '=', from)))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** The nodes holding claims of chunks not written yet. */
  async claimingNodes(): Promise<Array<string | null>> {
    const rows = await this.db
      .selectFrom('uploadChunk')
      .select('node')
      .distinct()
      .where('done', '=', 0)
      .execute();
    return rows.map((r) => r.node);
  }

  /** A claim given up (its bytes failed), so the chunk can be sent again. */
  async releaseChunk(sessionId: string, number: number): Promise<void> {
    await this.db
      .deleteFrom('uploadChunk')
      .where('sessionId', '=', sessionId)
      .where('number', '=', number)
      .where('done', '=', 0)
      .execute();
  }

  /** The claimed chunk is written; false when its session is gone. */
  async markChunkDone(sessionId: string, number: number): Promise<boolean> {
    const marked = await this.db
      .updateTable('uploadChunk')
      .set({ done: 1 })
      .where('sessionId', '=', sessionId)
      .where('number', '=', number)
      .executeTakeFirst();
    return Number(marked.numUpdatedRows) > 0;
  }

  async deleteChunks(sessionId: string): Promise<void> {
    await this.db.deleteFrom('uploadChunk').where('sessionId', '=', sessionId).execute();
  }

  /** Claims of requests that died with their node, so their chunks can be sent again. */
  async deleteUnfinishedClaims(nodes: Array<string | null>): Promise<void> {
    const named = nodes.filter((n): n is string => n !== null);
    await this.db
      .deleteFrom('uploadChunk')
      .where('done', '=', 0)
      .where((eb) =>
        eb.or([
          ...(nodes.includes(null) ? [eb('node', 'is', null)] : []),
          ...(named.length > 0 ? [eb('node', 'in', named)] : []),
        ]),
      )
      .execute();
  }

  /** Per session: the chunks written and the highest of them. */
  async progressOf(sessionIds: string[]): Promise<Map<string, { n: number; last: number }>> {
    const counts = new Map<string, { n: number; last: number }>();
    for (let i = 0; i < sessionIds.length; i += 500) {
      const got = await this.db
        .selectFrom('uploadChunk')
        .select((eb) => [
          'sessionId',
          eb.fn.countAll<number>().as('n'),
          eb.fn.max<number>('number').as('last'),
        ])
        .where('sessionId', 'in', sessionIds.slice(i, i + 500))
        .where('done', '=', 1)
        .groupBy('sessionId')
        .execute();
      for (const c of got) counts.set(c.sessionId, { n: Number(c.n), last: Number(c.last) });
    }
    return counts;
  }

  /** Upload sessions by state (uploading, merging; failed ones waiting to be cleaned up). */
  async countsByState(): Promise<Array<{ state: string; count: number }>> {
    const rows = await this.db
      .selectFrom('uploadSession')
      .select(['state', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('state', '!=', 'done')
      .groupBy('state')
      .execute();
    return rows.map((row) => ({ state: row.state, count: Number(row.count) }));
  }
}
