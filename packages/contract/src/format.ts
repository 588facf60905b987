/** Display helpers shared by server and web (spec §5, §9). */

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
