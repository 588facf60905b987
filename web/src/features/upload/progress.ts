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

/**
 * Bytes per second over the last few seconds of a growing count of bytes sent: the bytes sent
 * since the last sample older than the window, over the time since then. Bytes that flow keep
 * it above zero; a stalled transfer decays to zero instead of showing its last speed forever.
 * Five seconds: a throttled link reports a chunk's progress in bursts a few seconds apart.
 */
export class SpeedMeter {
  private samples: { at: number; bytes: number }[] = [];

  constructor(private readonly windowMs = 5000) {}

  record(bytes: number, at: number): void {
    this.samples.push({ at, bytes });
    // keep one sample at or before the window's start: the base the window is measured from
    const from = at - this.windowMs;
    while (this.samples.length > 2 && (this.samples[1]?.at ?? at) <= from) this.samples.shift();
  }

  speed(now: number): number {
    const last = this.samples[this.samples.length - 1];
    if (!last) return 0;
    const from = now - this.windowMs;
    let base = this.samples[0]!;
    for (const sample of this.samples) {
      if (sample.at > from) break;
      base = sample;
    }
    const span = Math.max(now, last.at) - base.at;
    if (span <= 0 || last.bytes <= base.bytes) return 0;
    return (last.bytes - base.bytes) / (span / 1000);
  }

  reset(): void {
    this.samples = [];
  }
}

/**
 * The bytes of one file on its way: those the server confirmed, those of each chunk on the
 * wire, all those sent (retries included, for the speed), and the progress shown, which never
 * falls: a chunk that fails or is cut by a pause is sent again without taking back what the
 * list already showed.
 */
export class ByteTally {
  confirmed = 0;
  /** Bytes put on the wire since this tally began, each byte of a resent chunk again. */
  sent = 0;
  private inflight = new Map<number, number>();
  private high: number;

  /** `shown`: the progress the list showed before (of an earlier run of the same file). */
  constructor(shown = 0) {
    this.high = shown;
  }

  /** The server holds these bytes already (the chunk test's resume list). */
  begin(confirmed: number): void {
    this.confirmed = confirmed;
    this.inflight.clear();
    this.bump();
  }

  /** `bytes` of this chunk have left so far. */
  progress(chunk: number, bytes: number): void {
    const before = this.inflight.get(chunk) ?? 0;
    if (bytes > before) this.sent += bytes - before;
    this.inflight.set(chunk, Math.max(before, bytes));
    this.bump();
  }

  /** The server took the whole chunk. */
  confirm(chunk: number, size: number): void {
    this.progress(chunk, size);
    this.inflight.delete(chunk);
    this.confirmed += size;
    this.bump();
  }

  /** The chunk failed or was cut: its bytes go again. */
  drop(chunk: number): void {
    this.inflight.delete(chunk);
  }

  /** What the list shows: confirmed and in-flight bytes, never less than shown before. */
  get shown(): number {
    return this.high;
  }

  private bump(): void {
    let inflight = 0;
    for (const bytes of this.inflight.values()) inflight += bytes;
    this.high = Math.max(this.high, this.confirmed + inflight);
  }
}

/** Seconds until `remaining` bytes are sent at `speed`; null when nothing is being sent. */
export function secondsLeft(remaining: number, speed: number): number | null {
  if (!(speed > 0) || !Number.isFinite(speed) || remaining < 0) return null;
  return Math.ceil(remaining / speed);
}

/** A time left in the largest unit that reads well: 45 s, 12 min, 2 h 5 min. */
export function timeLeftParts(seconds: number):
  | { unit: 'seconds'; count: number }
  | { unit: 'minutes'; count: number }
  | {
      unit: 'hours';
      hours: number;
      minutes: number;
    } {
  if (seconds < 60) return { unit: 'seconds', count: Math.max(1, seconds) };
  if (seconds < 3600) return { unit: 'minutes', count: Math.ceil(seconds / 60) };
  return {
    unit: 'hours',
    hours: Math.floor(seconds / 3600),
    minutes: Math.ceil((seconds % 3600) / 60),
  };
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
  /** Bytes per second of the files whose bytes are on the wire; 0 when none is sending. */
  speed: number;
  /** Files whose bytes are on the wire (not waiting, checking or merging). */
  sending: number;
  /** Bytes still to send of the files that have not failed. */
  remaining: number;
  /** At the present speed; null when nothing is being sent. */
  secondsLeft: number | null;
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
    sending: 0,
    remaining: 0,
    secondsLeft: null,
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
    if (ACTIVE_STATUSES.includes(item.status)) summary.active += 1;
    if (item.status === 'uploading') {
      summary.sending += 1;
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
  summary.speed = summary.sending ? speed : 0;
  summary.remaining = total - sent;
  summary.secondsLeft = summary.sending ? secondsLeft(summary.remaining, summary.speed) : null;
  summary.isUploading = summary.unfinished > 0;
  return summary;
}

/** document.title while uploading (API notes §3): `NN% | speed`, the speed while bytes flow. */
export function uploadTitle(summary: Pick<UploadSummary, 'percent' | 'speed'>): string {
  return summary.speed > 0
    ? `${summary.percent}% | ${formatSpeed(summary.speed)}`
    : `${summary.percent}%`;
}
