import {
  DEFAULT_DRIVE_NAME,
  DEFAULT_VERSIONS_PER_FILE,
  PRODUCT_VERSION,
  type LdapConfig,
  type WebsiteRecord,
  type WebsiteSetting,
  type WebsiteSettingBody,
} from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { logoDataUrl } from './logo.ts';
import { SettingsRepo } from './settings.repo.ts';

/** Drive-wide settings kept in the database, each a JSON value under a key. */
export interface DriveSettings {
  netdiskName: string;
  netdiskLogo: string | null;
  /** Preview config of spec §3: suffix lists mapped to viewer URL templates. */
  iframe: string;
  exactSearch: boolean;
  /** Every account must set up two-factor sign-in before it gets in. */
  mfaForceEnable: boolean;
  /** Uploaded photos are stored as WebP (General settings; off by default). */
  webpStorage: boolean;
  /** LDAP sign-in; its password sealed (auth/ldap.service.ts). */
  ldap: LdapConfig;
  /** Earlier versions kept of each file; the oldest go beyond it (history). */
  versionsPerFile: number;
  /** Trash items older than this many days go by themselves (retention); 0: never. */
  trashRetentionDays: number;
  /** Versions older than this many days go, a file's newest always staying; 0: never. */
  versionRetentionDays: number;
  /** A line of plain text under the sign-in and share pages. */
  footerText: string;
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
  mfaForceEnable: false,
  webpStorage: false,
  ldap: {
    enable: false,
    ldapServer: '',
    baseDN: '',
    userDN: '',
    password: '',
    loginName: 'uid',
    defaultRoleList: [],
  },
  versionsPerFile: DEFAULT_VERSIONS_PER_FILE,
  trashRetentionDays: 0,
  versionRetentionDays: 0,
  footerText: '',
};

export class SettingsService {
  /**
   * The setting rows; other modules keep JSON values under keys of their own through it (the
   * OCR, transcoding and OnlyOffice setups, the share token key), handed over by services.ts.
   */
  readonly repo: SettingsRepo;

  constructor(db: Db) {
    this.repo = new SettingsRepo(db);
  }

  async get<K extends keyof DriveSettings>(key: K): Promise<DriveSettings[K]> {
    const value = await this.repo.value(key);
    if (value === undefined) return DEFAULTS[key];
    try {
      return JSON.parse(value) as DriveSettings[K];
    } catch {
      return DEFAULTS[key];
    }
  }

  async drive(): Promise<DriveSettings> {
    const rows = await this.repo.all();
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
    await this.repo.put(key, JSON.stringify(value));
  }

  /** The drive's public record shown before sign-in. */
  async record(): Promise<WebsiteRecord> {
    const drive = await this.drive();
    return {
      netdiskName: drive.netdiskName,
      ...(drive.netdiskLogo ? { netdiskLogo: drive.netdiskLogo } : {}),
      version: this.version(),
      footerText: drive.footerText,
    };
  }

  /** `GET /website/setting` (administrators). */
  /** The original's dynamic address: Nimbus keeps none, for every signed-in user alike. */
  dynamicAddress(): { enabled: false; domain: '' } {
    return { enabled: false, domain: '' };
  }

  async website(actor: Actor): Promise<WebsiteSetting> {
    requireAuthority(actor, 'cloud:set:sync');
    const drive = await this.drive();
    return {
      netdiskName: drive.netdiskName,
      ...(drive.netdiskLogo ? { netdiskLogo: drive.netdiskLogo } : {}),
      footerText: drive.footerText,
      versionsPerFile: drive.versionsPerFile,
      trashRetentionDays: drive.trashRetentionDays,
      versionRetentionDays: drive.versionRetentionDays,
    };
  }

  /** `PUT /website/setting/update` (administrators): the footer line, what is kept how long. */
  async updateWebsite(actor: Actor, body: WebsiteSettingBody): Promise<WebsiteSetting> {
    requireAuthority(actor, 'cloud:set:sync');
    if (body.footerText !== undefined) await this.set('footerText', body.footerText.trim());
    if (body.versionsPerFile !== undefined) await this.set('versionsPerFile', body.versionsPerFile);
    if (body.trashRetentionDays !== undefined)
      await this.set('trashRetentionDays', body.trashRetentionDays);
    if (body.versionRetentionDays !== undefined)
      await this.set('versionRetentionDays', body.versionRetentionDays);
    return this.website(actor);
  }

  /** Renames the drive: only with the authority to change the drive's settings. */
  async rename(actor: Actor, name: string): Promise<void> {
    requireAuthority(actor, 'cloud:set:update');
    await this.set('netdiskName', name);
  }

  /** A new disk logo (logo.ts redraws it as a PNG): shown in the title and as the favicon. */
  async setLogo(actor: Actor, bytes: Buffer, filename: string): Promise<string> {
    requireAuthority(actor, 'cloud:set:update');
    const logo = await logoDataUrl(bytes, filename);
    await this.set('netdiskLogo', logo);
    return logo;
  }

  /** Throws when the database cannot be reached (the health check). */
  databaseReachable(): Promise<void> {
    return this.repo.ping();
  }

  version(): string {
    return PRODUCT_VERSION;
  }
}
