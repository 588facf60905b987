import {
  displayWidth,
  formatDateTime as formatApiDate,
  formatSize,
  parseDateTime,
  truncateByWidth,
} from '@nimbus/contract';

export { displayWidth, formatSize, truncateByWidth };

/** An API date (`yyyy-MM-dd HH:mm:ss`, server local time) as a Date; null if unreadable. */
export const parseServerDate = parseDateTime;

/** A moment relative to now, in the steps of spec §9; the caller turns it into words. */
export type RelativeTime =
  | { unit: 'justNow'; value: 0 }
  | { unit: 'minutes' | 'hours' | 'days' | 'months' | 'years'; value: number };

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/**
 * spec §9: 'just now' under 60 s, then minutes, hours, days (under 30 days), months (up to
 * 720 days), years. A time in the future (clock skew) reads as just now.
 */
export function relativeTime(then: Date | number, now: Date | number = Date.now()): RelativeTime {
  const seconds = Math.floor((Number(now) - Number(then)) / 1000);
  if (!Number.isFinite(seconds) || seconds < MINUTE) return { unit: 'justNow', value: 0 };
  if (seconds < HOUR) return { unit: 'minutes', value: Math.floor(seconds / MINUTE) };
  if (seconds < DAY) return { unit: 'hours', value: Math.floor(seconds / HOUR) };
  const days = Math.floor(seconds / DAY);
  if (days < 30) return { unit: 'days', value: days };
  if (days <= 720) return { unit: 'months', value: Math.max(1, Math.floor(days / 30)) };
  return { unit: 'years', value: Math.max(1, Math.floor(days / 365)) };
}

const ELLIPSIS = '…';

/** `yyyy-MM-dd HH:mm` for tables and tooltips. */
export function formatDateTime(date: Date | null): string {
  return formatApiDate(date, 'minutes');
}

/**
 * A file name shortened to a display width (spec §5: wide characters count 2) that keeps its
 * extension visible: `a-very-long-report….pdf`. Names that fit are returned as they are.
 */
export function truncateName(name: string, maxWidth: number): string {
  if (displayWidth(name) <= maxWidth) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 8 ? name.slice(dot) : '';
  // the ellipsis is wide too (spec §5 counts everything outside Latin-1 as 2)
  const room = maxWidth - displayWidth(ext) - displayWidth(ELLIPSIS);
  if (!ext || room < 4) {
    return `${truncateByWidth(name, maxWidth - displayWidth(ELLIPSIS)).replace(/\.\.\.$/, '')}${ELLIPSIS}`;
  }
  const base = truncateByWidth(name.slice(0, dot), room).replace(/\.\.\.$/, '');
  return `${base}${ELLIPSIS}${ext}`;
}

/** Whole numbers with the locale's grouping: 100000 → "100,000". */
export function formatCount(value: number, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale).format(value);
}
