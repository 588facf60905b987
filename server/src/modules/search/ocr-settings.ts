import { MAX_OCR_TASKS } from '@nimbus/contract';
import { OCR_ENGINES, type OcrEngineName } from './content/ocr.ts';
import type { SettingsRepo } from '../settings/settings.repo.ts';

/** OCR configuration (API-NOTES §1.12): on or off, parallel tasks, the engine preferred. */
export interface OcrConfig {
  enable: boolean;
  maxTasks: number;
  ocrEngine: OcrEngineName;
}

export const OCR_DEFAULTS: OcrConfig = { enable: true, maxTasks: 1, ocrEngine: 'tesseract' };
export { MAX_OCR_TASKS };

const KEY = 'ocrConfig';

/** Kept by the settings service as one JSON value; read often, so cached briefly. */
export class OcrSettings {
  private cached: { value: OcrConfig; at: number } | undefined;

  constructor(private readonly settings: SettingsRepo) {}

  async get(): Promise<OcrConfig> {
    if (this.cached && Date.now() - this.cached.at < 5000) return this.cached.value;
    const stored = await this.settings.value(KEY);
    let value = OCR_DEFAULTS;
    if (stored !== undefined) {
      try {
        value = normalize(JSON.parse(stored) as Partial<OcrConfig>);
      } catch {
        // a damaged value falls back to the defaults
      }
    }
    this.cached = { value, at: Date.now() };
    return value;
  }

  async set(value: OcrConfig): Promise<OcrConfig> {
    const clean = normalize(value);
    const text = JSON.stringify(clean);
    await this.settings.put(KEY, text);
    this.cached = { value: clean, at: Date.now() };
    return clean;
  }
}

function normalize(v: Partial<OcrConfig>): OcrConfig {
  const tasks = Math.round(Number(v.maxTasks ?? OCR_DEFAULTS.maxTasks));
  return {
    enable: typeof v.enable === 'boolean' ? v.enable : OCR_DEFAULTS.enable,
    maxTasks: Number.isFinite(tasks) ? Math.min(MAX_OCR_TASKS, Math.max(1, tasks)) : 1,
    ocrEngine: (OCR_ENGINES as readonly string[]).includes(String(v.ocrEngine))
      ? (v.ocrEngine as OcrEngineName)
      : OCR_DEFAULTS.ocrEngine,
  };
}
