import type { Db } from '../../db/index.ts';
import type { CachedFileRow } from './cache-keeper.ts';

/** The queries of the cache sweep: what it reads of the files its entries were made of. */
export class CacheRepo {
  constructor(private readonly db: Db) {}

  /** The rows of these files that still exist (live or in the trash), whoever owns them. */
  async filesByIds(ids: string[]): Promise<CachedFileRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('file')
      .select(['id', 'isFolder', 'hash', 'size', 'updateDate', 'suffix', 'fileType', 'media'])
      .where('id', 'in', ids)
      .execute();
  }
}
