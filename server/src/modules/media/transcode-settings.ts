import { createHash } from 'node:crypto';
import { TRANSCODE_DEFAULTS, TRANSCODE_LIMITS, type TranscodeConfig } from '@nimbus/contract';
import type { SettingsRepo } from '../settings/settings.repo.ts';

const KEY = 'transcodeConfig';

/** The Video Transcoding settings (API-NOTES §1.12), one JSON value, cached briefly. */
export class TranscodeSettings {
  private cached: { value: TranscodeConfig; at: number } | undefined;

  constructor(private readonly settings: SettingsRepo) {}

  async get(): Promise<TranscodeConfig> {
    if (this.cached && Date.now() - this.cached.at < 5000) return this.cached.value;
    const stored = await this.settings.value(KEY);
    let value: TranscodeConfig = { ...TRANSCODE_DEFAULTS };
    if (stored !== undefined) {
      try {
        value = normalize(JSON.parse(stored) as Partial<TranscodeConfig>);
      } catch {
        // a damaged value falls back to the defaults
      }
    }
    this.cached = { value, at: Date.now() };
    return value;
  }

  async set(value: Partial<TranscodeConfig>): Promise<TranscodeConfig> {
    const clean = normalize({ ...(await this.get()), ...value });
    await this.settings.put(KEY, JSON.stringify(clean));
    this.cached = { value: clean, at: Date.now() };
    return clean;
  }
}

function clamp(value: unknown, [min, max]: readonly [number, number], fallback: number): number {
  const n = Math.round(Number(value));
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

function normalize(v: Partial<TranscodeConfig>): TranscodeConfig {
  const d = TRANSCODE_DEFAULTS;
  const L = TRANSCODE_LIMITS;
  return {
    enable: typeof v.enable === 'boolean' ? v.enable : d.enable,
    maxThreads: clamp(v.maxThreads, L.maxThreads, d.maxThreads),
    bitrateCond: clamp(v.bitrateCond, L.bitrate, d.bitrateCond),
    heightCond: clamp(v.heightCond, L.height, d.heightCond),
    frameRateCond: clamp(v.frameRateCond, L.frameRate, d.frameRateCond),
    bitrate: clamp(v.bitrate, L.bitrate, d.bitrate),
    height: clamp(v.height, L.height, d.height),
    frameRate: clamp(v.frameRate, L.frameRate, d.frameRate),
    vttThumbnailCount: clamp(v.vttThumbnailCount, L.vttThumbnailCount, d.vttThumbnailCount),
    isReTranscode: typeof v.isReTranscode === 'boolean' ? v.isReTranscode : d.isReTranscode,
  };
}

/** What a rendition made under these settings looks like: renditions are kept under it. */
export function targetFingerprint(c: TranscodeConfig): string {
  return createHash('sha256')
    .update(`${c.bitrate}/${c.height}/${c.frameRate}`)
    .digest('hex')
    .slice(0, 8);
}
