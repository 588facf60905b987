import { ONLYOFFICE_DEFAULT_FORMATS } from '@nimbus/contract';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { SettingsRepo } from '../settings/settings.repo.ts';

const KEY = 'officeConfig';

/** The OnlyOffice settings as kept: the secret sealed (lib/secret-box.ts). */
interface StoredOfficeConfig {
  documentServer: string;
  callbackServer: string;
  sealedSecret: string;
  format: string[];
}

/** The OnlyOffice settings in use, the secret in the clear (never answered to anyone). */
export interface OfficeConfig {
  documentServer: string;
  callbackServer: string;
  secret: string;
  format: string[];
}

const DEFAULTS: StoredOfficeConfig = {
  documentServer: '',
  callbackServer: '',
  sealedSecret: '',
  format: [...ONLYOFFICE_DEFAULT_FORMATS],
};

/** The OnlyOffice settings (API-NOTES §1.12), one JSON value under a key of its own. */
export class OfficeSettings {
  constructor(
    private readonly settings: SettingsRepo,
    private readonly box: SecretBox,
  ) {}

  private async stored(): Promise<StoredOfficeConfig> {
    const text = await this.settings.value(KEY);
    if (text === undefined) return { ...DEFAULTS };
    try {
      return { ...DEFAULTS, ...(JSON.parse(text) as Partial<StoredOfficeConfig>) };
    } catch {
      return { ...DEFAULTS };
    }
  }

  async get(): Promise<OfficeConfig> {
    const s = await this.stored();
    let secret = '';
    try {
      secret = s.sealedSecret ? this.box.unseal(s.sealedSecret) : '';
    } catch {
      // sealed under another key: as if none were set, until the administrator sets it again
    }
    return {
      documentServer: s.documentServer,
      callbackServer: s.callbackServer,
      secret,
      format: s.format,
    };
  }

  /** `secret` undefined keeps the one set; '' removes it. */
  async set(input: {
    documentServer: string;
    callbackServer?: string;
    secret?: string;
    format?: string[];
  }): Promise<void> {
    const before = await this.stored();
    const next: StoredOfficeConfig = {
      documentServer: input.documentServer.replace(/\/+$/, ''),
      callbackServer: (input.callbackServer ?? before.callbackServer).replace(/\/+$/, ''),
      sealedSecret:
        input.secret === undefined
          ? before.sealedSecret
          : input.secret === ''
            ? ''
            : this.box.seal(input.secret),
      format: input.format ? [...new Set(input.format.map((f) => f.toLowerCase()))] : before.format,
    };
    await this.settings.put(KEY, JSON.stringify(next));
  }
}
