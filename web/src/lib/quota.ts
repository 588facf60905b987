import { QUOTA_COLOR_STEPS } from '@nimbus/contract';

/** One colour per quota step of spec §4: up to 20, 40, 60, 80 and 100 percent. */
const STEP_COLORS = ['#52c41a', '#3d6dfa', '#7b5cff', '#fa8c16', '#f5222d'] as const;

export function quotaColor(percent: number): string {
  const index = QUOTA_COLOR_STEPS.findIndex((step) => percent <= step);
  return STEP_COLORS[index === -1 ? STEP_COLORS.length - 1 : index] ?? STEP_COLORS[0];
}

const UNITS = ['B', 'K', 'M', 'G', 'T'] as const;

/** A number with at most two decimals and no trailing zeros; a little above 0 stays visible. */
function amount(value: number): string {
  if (value > 0 && value < 0.005) return '<0.01';
  return String(Math.round(value * 100) / 100);
}

/**
 * Used space and quota in one unit, the one that suits the larger of the two (spec §4's letters:
 * B, K, M, G, T), so they read side by side: `{ used: '30M', quota: '51.2M' }`.
 */
export function quotaParts(usedBytes: number, quotaGb: number): { used: string; quota: string } {
  const quotaBytes = Math.max(0, quotaGb) * 1024 ** 3;
  const larger = Math.max(usedBytes, quotaBytes);
  let unit = 0;
  while (larger >= 1024 ** (unit + 1) && unit < UNITS.length - 1) unit += 1;
  const scale = 1024 ** unit;
  return {
    used: `${amount(Math.max(0, usedBytes) / scale)}${UNITS[unit]}`,
    quota: `${amount(quotaBytes / scale)}${UNITS[unit]}`,
  };
}

/** "1.2 / 8G": used over quota, the unit said once. */
export function quotaText(usedBytes: number, quotaGb: number): string {
  const { used, quota } = quotaParts(usedBytes, quotaGb);
  return `${used.replace(/[A-Z]$/, '')} / ${quota}`;
}
