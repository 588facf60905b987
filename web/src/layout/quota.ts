import { QUOTA_COLOR_STEPS, formatSize } from '@nimbus/contract';

/** One colour per quota step of spec §4: up to 20, 40, 60, 80 and 100 percent. */
const STEP_COLORS = ['#52c41a', '#3d6dfa', '#7b5cff', '#fa8c16', '#f5222d'] as const;

export function quotaColor(percent: number): string {
  const index = QUOTA_COLOR_STEPS.findIndex((step) => percent <= step);
  return STEP_COLORS[index === -1 ? STEP_COLORS.length - 1 : index] ?? STEP_COLORS[0];
}

/** "1.2G / 8G": used size without trailing zeros over the quota in GB. */
export function quotaText(usedBytes: number, quotaGb: number): string {
  const used = formatSize(usedBytes)
    .replace(/(\.\d*?)0+(?=[A-Z]$)/, '$1')
    .replace(/\.(?=[A-Z]$)/, '');
  const quota = Number.isInteger(quotaGb)
    ? String(quotaGb)
    : quotaGb.toFixed(2).replace(/\.?0+$/, '');
  return `${used} / ${quota}G`;
}
