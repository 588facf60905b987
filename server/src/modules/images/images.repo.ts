import type { Db } from '../../db/index.ts';

/**
 * What is recorded of a file's content beside its row: the `media` JSON of the `file` table,
 * one key per kind of facts (`image` here; music tags and video facts under keys of their own).
 */
export class ImagesRepo {
  constructor(private readonly db: Db) {}

  async media(fileId: string): Promise<Record<string, unknown> | null> {
    const row = await this.db
      .selectFrom('file')
      .select('media')
      .where('id', '=', fileId)
      .executeTakeFirst();
    if (!row?.media) return null;
    try {
      const parsed: unknown = JSON.parse(row.media);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  /** Set some keys of a file's media facts, keeping the others. */
  async setMediaKeys(fileId: string, values: Record<string, unknown>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('file')
        .select('media')
        .where('id', '=', fileId)
        .executeTakeFirst();
      if (!row) return;
      let media: Record<string, unknown> = {};
      try {
        const parsed: unknown = row.media ? JSON.parse(row.media) : {};
        if (parsed && typeof parsed === 'object') media = parsed as Record<string, unknown>;
      } catch {
        // damaged facts are replaced
      }
      Object.assign(media, values);
      await trx
        .updateTable('file')
        .set({ media: JSON.stringify(media) })
        .where('id', '=', fileId)
        .execute();
    });
  }
}
