import { SearchDocsRepo } from './search-docs.repo.ts';
import type { DocState } from './search-types.ts';

/**
 * The queues of the content lanes (text, then OCR) kept in the documents' states: which users
 * have work, claiming documents, and storing or reusing the text read from them.
 */
export abstract class SearchLanesRepo extends SearchDocsRepo {
  /** Users with live documents waiting in a lane's queue, and which. */
  usersWithPending() {
    return this.db
      .selectFrom('searchDoc')
      .select(['userId', 'state'])
      .distinct()
      .where('state', 'in', ['pending', 'pending_ocr'])
      .where('live', '=', 1)
      .execute();
  }

  /** Live documents waiting in or claimed by a lane, by state. */
  async laneCounts(): Promise<Array<{ state: string; count: number }>> {
    const rows = await this.db
      .selectFrom('searchDoc')
      .select(['state', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('state', 'in', ['pending', 'pending_ocr', 'running', 'running_ocr'])
      .where('live', '=', 1)
      .groupBy('state')
      .execute();
    return rows.map((row) => ({ state: row.state, count: Number(row.count) }));
  }

  /** Users with documents queued or claimed in either lane. */
  async usersWithWork(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('searchDoc')
      .select('userId')
      .distinct()
      .where('state', 'in', ['pending', 'pending_ocr', 'running', 'running_ocr'])
      .execute();
    return rows.map((r) => r.userId);
  }

  async countInState(userId: string, state: DocState): Promise<number> {
    const row = await this.db
      .selectFrom('searchDoc')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', userId)
      .where('state', '=', state)
      .where('live', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Claim up to `count` live documents of a user from `pending` into `running`. */
  async claim(
    userId: string,
    pending: DocState,
    running: DocState,
    count: number,
  ): Promise<number[]> {
    const rows = await this.db
      .selectFrom('searchDoc')
      .select('docKey')
      .where('userId', '=', userId)
      .where('state', '=', pending)
      .where('live', '=', 1)
      .orderBy('docKey')
      .limit(count)
      .execute();
    const claimed: number[] = [];
    for (const { docKey } of rows) {
      if (await this.updateDocIn(docKey, pending, { state: running, claimedAt: Date.now() }))
        claimed.push(docKey);
    }
    return claimed;
  }

  /** A user's claims in `running` made before `before` (or never stamped) go back to `pending`. */
  async releaseClaims(
    userId: string,
    running: DocState,
    pending: DocState,
    before: number,
  ): Promise<void> {
    await this.db
      .updateTable('searchDoc')
      .set({ state: pending, claimedAt: null })
      .where('userId', '=', userId)
      .where('state', '=', running)
      .where((eb) => eb.or([eb('claimedAt', 'is', null), eb('claimedAt', '<', before)]))
      .execute();
  }

  /** A document with its file's row. */
  fileOf(docKey: number) {
    return this.db
      .selectFrom('searchDoc as d')
      .innerJoin('file as f', 'f.id', 'd.fileId')
      .selectAll('f')
      .select(['d.docKey', 'd.contentHash', 'd.live'])
      .where('d.docKey', '=', docKey)
      .executeTakeFirst();
  }

  /** Store the text of a document unless it left state `from` meanwhile (its file changed). */
  async storeText(docKey: number, from: DocState, hash: string, text: string): Promise<void> {
    await this.transaction(async (trx) => {
      const fields = {
        state: 'done',
        contentHash: hash,
        message: null,
        claimedAt: null,
        updatedAt: Date.now(),
      } as const;
      if (!(await this.updateDocIn(docKey, from, fields, trx))) return;
      const live = await trx
        .selectFrom('searchDoc')
        .select('live')
        .where('docKey', '=', docKey)
        .executeTakeFirstOrThrow();
      await this.writeContent(trx, docKey, live.live === 1, text);
    });
  }

  /** A document whose file has no text to read: its stored text goes. */
  async dropText(docKey: number): Promise<void> {
    await this.transaction(async (trx) => {
      await this.clearContent(trx, docKey);
      await this.updateDoc(docKey, { state: 'none', contentHash: null, claimedAt: null }, trx);
    });
  }

  async hasStoredText(docKey: number): Promise<boolean> {
    const stored = await this.db
      .selectFrom('searchContent')
      .select('docKey')
      .where('docKey', '=', docKey)
      .limit(1)
      .executeTakeFirst();
    return stored !== undefined;
  }

  /** The stored text is current: done again, and back in the full-text index when live. */
  async reuseStoredText(docKey: number, from: DocState, live: boolean): Promise<void> {
    await this.transaction(async (trx) => {
      const moved = await this.updateDocIn(docKey, from, { state: 'done', claimedAt: null }, trx);
      if (moved && live) await this.indexStoredText(trx, docKey);
    });
  }

  /**
   * Take the stored text of another document with the same bytes. False when there is none
   * (or it had no text after all); true too when the document left `running` meanwhile.
   */
  async copyFromTwin(
    docKey: number,
    hash: string,
    live: boolean,
    running: DocState,
  ): Promise<boolean> {
    const twin = await this.db
      .selectFrom('searchDoc')
      .select('docKey')
      .where('contentHash', '=', hash)
      .where('state', '=', 'done')
      .where('docKey', '!=', docKey)
      .limit(1)
      .executeTakeFirst();
    if (!twin) return false;
    return this.transaction(async (trx) => {
      const fields = { state: 'done', contentHash: hash, message: null, claimedAt: null } as const;
      // the file changed meanwhile: nothing to do now, it is queued again
      if (!(await this.updateDocIn(docKey, running, fields, trx))) return true;
      if (await this.copyContent(trx, twin.docKey, docKey, live)) return true;
      // the twin had no text after all (an image waiting for OCR): read this file itself
      await this.updateDoc(docKey, { state: running }, trx);
      return false;
    });
  }

  /** Documents skipped for want of OCR go back to the text lane; returns their users. */
  async requeueOcrSkipped(): Promise<string[]> {
    const users = await this.db
      .selectFrom('searchDoc')
      .select('userId')
      .distinct()
      .where('state', '=', 'skipped')
      .where('message', 'like', 'ocr:%')
      .execute();
    await this.db
      .updateTable('searchDoc')
      .set({ state: 'pending', message: null })
      .where('state', '=', 'skipped')
      .where('message', 'like', 'ocr:%')
      .execute();
    return users.map((u) => u.userId);
  }
}
