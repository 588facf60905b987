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

  async dropDraft(fileId: string, userId: string): Promise<void> {
    await this.db
      .deleteFrom('documentDraft')
      .where('fileId', '=', fileId)
      .where('userId', '=', userId)
      .execute();
  }
}
