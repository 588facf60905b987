import type { Db } from '../../db/index.ts';

/** A change of disk and database recorded before the disk changes (`file_op`). */
export interface Intent {
  id: string;
  userId: string;
  kind: 'move' | 'copy' | 'trash' | 'restore';
  fromPath: string;
  toPath: string;
  /** Bytes the operation adds, held against the quota until it commits (quota.ts). */
  bytes: number;
}

/** The queries of the crash journal. */
export class JournalRepo {
  constructor(
    private readonly db: Db,
    /** This process's node (db/presence.ts), recorded with each intent. */
    private readonly node: string,
  ) {}

  async record(intent: Intent, trx: Db = this.db): Promise<void> {
    await trx
      .insertInto('fileOp')
      .values({ ...intent, node: this.node, createdAt: Date.now() })
      .execute();
  }

  /** Whether the intent is still recorded (another node may have undone it meanwhile). */
  async recorded(id: string): Promise<boolean> {
    return !!(await this.db
      .selectFrom('fileOp')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst());
  }

  /** Whether any change is under way or was left behind, on any node. */
  async anyUnderWay(): Promise<boolean> {
    return !!(await this.db.selectFrom('fileOp').select('id').limit(1).executeTakeFirst());
  }

  async forget(id: string, trx: Db = this.db): Promise<void> {
    await trx.deleteFrom('fileOp').where('id', '=', id).execute();
  }

  /** Every intent left behind, the newest first (they are undone in that order). */
  leftBehind() {
    return this.db.selectFrom('fileOp').selectAll().orderBy('createdAt', 'desc').execute();
  }

  /** Which of these ids are rows in the trash (the others' bytes are orphans). */
  async trashedAmong(ids: string[]): Promise<Set<string>> {
    const kept = await this.db
      .selectFrom('file')
      .select('id')
      .where('id', 'in', ids)
      .where('trashId', 'is not', null)
      .execute();
    return new Set(kept.map((r) => r.id));
  }
}
