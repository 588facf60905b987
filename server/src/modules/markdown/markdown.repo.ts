import type { Db } from '../../db/index.ts';

export interface DraftRow {
  fileId: string;
  userId: string;
  contentText: string;
  baseHash: string | null;
  updatedAt: number;
}

/** The editors' drafts: one unsaved text per file and person. */
export class MarkdownRepo {
  constructor(private readonly db: Db) {}

  draft(fileId: string, userId: string): Promise<DraftRow | undefined> {
    return this.db
      .selectFrom('documentDraft')
      .selectAll()
      .where('fileId', '=', fileId)
      .where('userId', '=', userId)
      .executeTakeFirst();
  }

  async keepDraft(row: DraftRow): Promise<void> {
    await this.db
      .insertInto('documentDraft')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['fileId', 'userId']).doUpdateSet({
          contentText: row.contentText,
          baseHash: row.baseHash,
          updatedAt: row.updatedAt,
        }),
      )
      .execute();
  }

  /**
   * Keep a person's newest drafts only: at most `count` of them, holding at most `chars`
   * characters together; the ones left longest untouched go. The newest always stays. Run
   * after each draft kept: parallel runs converge on the same newest drafts.
   */
  async trimDrafts(userId: string, limits: { count: number; chars: number }): Promise<number> {
    const rows = await this.db
      .selectFrom('documentDraft')
      .select((eb) => ['fileId', eb.fn<number>('length', ['contentText']).as('chars')])
      .where('userId', '=', userId)
      .orderBy('updatedAt', 'desc')
      .orderBy('fileId', 'asc')
      .execute();
    let chars = 0;
    const gone: string[] = [];
    rows.forEach((row, i) => {
      chars += Number(row.chars);
      if (i > 0 && (i >= limits.count || chars > limits.chars)) gone.push(row.fileId);
    });
    if (gone.length === 0) return 0;
    await this.db
      .deleteFrom('documentDraft')
      .where('userId', '=', userId)
      .where('fileId', 'in', gone)
      .execute();
    return gone.length;
  }

  async dropDraft(fileId: string, userId: string): Promise<void> {
    await this.db
      .deleteFrom('documentDraft')
      .where('fileId', '=', fileId)
      .where('userId', '=', userId)
      .execute();
  }
}
