import { DEFAULT_DRIVE_NAME, PRODUCT_VERSION } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';

/** Drive-wide settings kept in the database, each a JSON value under a key. */
export interface DriveSettings {
  netdiskName: string;
  netdiskLogo: string | null;
  /** Preview config of spec §3: suffix lists mapped to viewer URL templates. */
  iframe: string;
  exactSearch: boolean;
}

const DEFAULT_IFRAME = JSON.stringify({
  pdf: { 'PDF viewer': '/pdf.js/web/viewer.html?file=$e_url' },
  epub: { 'EPUB viewer': '/resource/epubjs/viewer.html?url=$e_url' },
});

const DEFAULTS: DriveSettings = {
  netdiskName: DEFAULT_DRIVE_NAME,
  netdiskLogo: null,
  iframe: DEFAULT_IFRAME,
  exactSearch: true,
};

export class SettingsService {
  constructor(private readonly db: Db) {}

  async get<K extends keyof DriveSettings>(key: K): Promise<DriveSettings[K]> {
    const row = await this.db
      .selectFrom('setting')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return DEFAULTS[key];
    try {
      return JSON.parse(row.value) as DriveSettings[K];
    } catch {
      return DEFAULTS[key];
    }
  }

  async drive(): Promise<DriveSettings> {
    const rows = await this.db.selectFrom('setting').selectAll().execute();
    const out: DriveSettings = { ...DEFAULTS };
    for (const r of rows) {
      if (r.key in DEFAULTS) {
        try {
          (out as unknown as Record<string, unknown>)[r.key] = JSON.parse(r.value);
        } catch {
          // a damaged value falls back to the default
        }
      }
    }
    return out;
  }

  async set<K extends keyof DriveSettings>(key: K, value: DriveSettings[K]): Promise<void> {
    const text = JSON.stringify(value);
    const now = Date.now();
    await this.db
      .insertInto('setting')
      .values({ key, value: text, updatedAt: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: text, updatedAt: now }))
      .execute();
  }

  version(): string {
    return PRODUCT_VERSION;
  }
}
