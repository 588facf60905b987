/** Display helpers shared by server and web: sizes, widths and dates (spec §5, §9). */

const SIZE_UNITS = ['B', 'K', 'M', 'G', 'T'] as const;

/** Sizes in B/K/M/G/T, base 1024, 2 decimals (spec §9). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = unit === 0 ? String(Math.round(value)) : value.toFixed(2);
  return `${text}${SIZE_UNITS[unit]}`;
}

const LIMIT_UNITS = ['bytes', 'KB', 'MB', 'GB'] as const;

/**
 * A limit as people read it in a rule ("at most 128 KB"): in the largest unit (base 1024) that
 * it fills whole, so the words and the check say the same number.
 */
export function formatLimit(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && value % 1024 === 0 && unit < LIMIT_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value} ${LIMIT_UNITS[unit]}`;
}

/** Quota percentage: used bytes over quota GB, capped at 100 (spec §4). */
export function quotaPercent(usedBytes: number, quotaGb: number): number {
  if (quotaGb <= 0) return usedBytes > 0 ? 100 : 0;
  const percent = (usedBytes / (quotaGb * 1024 ** 3)) * 100;
  return Math.min(100, Math.round(percent * 100) / 100);
}

/**
 * Display width of a name: ASCII and half-width kana count 1, everything else 2 (spec §5).
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += charWidth(ch);
  return width;
}

function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp <= 0xff) return 1;
  if (cp >= 0xff61 && cp <= 0xff9f) return 1; // half-width kana
  return 2;
}

/** Truncate to a display width with an ellipsis (spec §5: default width 10). */
export function truncateByWidth(text: string, maxWidth = 10): string {
  if (displayWidth(text) <= maxWidth) return text;
  let width = 0;
  let out = '';
  for (const ch of text) {
    const w = charWidth(ch);
    if (width + w > maxWidth) break;
    out += ch;
    width += w;
  }
  return `${out}...`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * The API's dates: `yyyy-MM-dd HH:mm:ss` in the server's local time (API-NOTES §1.0), written by
 * the server; the web app shows them to the minute (`precision: 'minutes'`). '' for no date.
 */
export function formatDateTime(
  at: Date | number | null | undefined,
  precision: 'seconds' | 'minutes' = 'seconds',
): string {
  if (at === null || at === undefined) return '';
  const d = at instanceof Date ? at : new Date(Number(at));
  if (Number.isNaN(d.getTime())) return '';
  const minutes =
    `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ` +
    `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
  return precision === 'minutes' ? minutes : `${minutes}:${pad2(d.getSeconds())}`;
}

/** An API date (`formatDateTime`'s form, or any form `Date` reads) as a Date; null if unreadable. */
export function parseDateTime(text: string | null | undefined): Date | null {
  if (!text) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(text);
  if (!m) {
    const fallback = new Date(text);
    return Number.isNaN(fallback.getTime()) ? null : fallback;
  }
  const [, y, mo, d, h, mi, s] = m;
  return new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
}
