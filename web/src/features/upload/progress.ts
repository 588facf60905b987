import { ACTIVE_STATUSES, UNFINISHED_STATUSES, type UploadItem } from './types';

const SPEED_UNITS = ['B/s', 'KB/s', 'MB/s', 'GB/s'] as const;

/** Speeds in B/s, KB/s, MB/s, GB/s, base 1024 (spec §9). */
export function formatSpeed(bytesPerSecond: number): string {
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return '0 B/s';
  let value = bytesPerSecond;
  let unit = 0;
  while (value >= 1024 && unit < SPEED_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? Math.round(value) : value.toFixed(2)} ${SPEED_UNITS[unit]}`;
}

/** Bytes per second over a sliding window of samples of a growing byte count. */
export class SpeedMeter {
  private samples: { at: number; bytes: number }[] = [];

  constructor(private readonly windowMs = 3000) {}

  record(bytes: number, at: number): void {
    this.samples.push({ at, bytes });
    const from = at - this.windowMs;
    while (this.samples.length > 2 && (this.samples[1]?.at ?? at) <= from) this.samples.shift();
  }

  speed(now: number): number {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last === first) return 0;
    // a stalled transfer decays to zero instead of showing its last speed forever
    const span = Math.max(now, last.at) - first.at;
    if (span <= 0) return 0;
    return Math.max(0, (last.bytes - first.bytes) / (span / 1000));
  }

  reset(): void {
    this.samples = [];
  }
}

export interface UploadSummary {
  count: number;
  success: number;
  failure: number;
  paused: number;
  /** Waiting, checking, uploading or merging. */
  unfinished: number;
  active: number;
  /** 0..100, floor, of the bytes of the files that have not failed. */
  percent: number;
  speed: number;
  isUploading: boolean;
}

export function summarize(items: readonly UploadItem[]): UploadSummary {
  let total = 0;
  let sent = 0;
  let speed = 0;
  const summary: UploadSummary = {
    count: items.length,
    success: 0,
    failure: 0,
    paused: 0,
    unfinished: 0,
    active: 0,
    percent: 0,
    speed: 0,
    isUploading: false,
  };
  for (const item of items) {
    if (item.status === 'success') summary.success += 1;
    if (item.status === 'failure') {
      summary.failure += 1;
      continue;
    }
    if (item.status === 'paused') summary.paused += 1;
    if (UNFINISHED_STATUSES.includes(item.status)) summary.unfinished += 1;
    if (ACTIVE_STATUSES.includes(item.status)) {
      summary.active += 1;
      speed += item.speed;
    }
    total += item.size;
    sent += item.status === 'success' ? item.size : Math.min(item.uploaded, item.size);
  }
  const counted = items.length - summary.failure;
  summary.percent =
    total > 0
      ? Math.floor((sent / total) * 100)
      : counted > 0 && summary.success === counted
        ? 100
        : 0;
  summary.speed = speed;
  summary.isUploading = summary.unfinished > 0;
  return summary;
}

/** document.title while uploading (API notes §3): `NN% | speed`. */
export function uploadTitle(summary: Pick<UploadSummary, 'percent' | 'speed'>): string {
  return `${summary.percent}% | ${formatSpeed(summary.speed)}`;
}
