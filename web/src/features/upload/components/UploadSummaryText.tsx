import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatSpeed, timeLeftParts, type UploadSummary } from '../progress';
import { useUploadSummary } from '../use-upload';

/** "12 s left", "3 min left", "2 h 5 min left". */
export function timeLeftText(t: TFunction<'upload'>, seconds: number): string {
  const parts = timeLeftParts(seconds);
  return parts.unit === 'hours'
    ? t('left.hours', { hours: parts.hours, minutes: parts.minutes })
    : t(`left.${parts.unit}`, { count: parts.count });
}

/** Speed and time left while bytes are on the wire; nothing while files are checked or merged. */
export function speedParts(t: TFunction<'upload'>, s: UploadSummary): string[] {
  if (!s.sending || s.speed <= 0) return [];
  const parts = [formatSpeed(s.speed)];
  if (s.secondsLeft !== null) parts.push(timeLeftText(t, s.secondsLeft));
  return parts;
}

/** "3 of 10 done · 4.20 MB/s · 12 s left", "10 uploaded", "2 failed". */
export function UploadSummaryText() {
  const { t } = useTranslation('upload');
  const s = useUploadSummary();
  const parts: string[] = [];
  if (s.isUploading) {
    parts.push(t('summary.progress', { done: s.success, count: s.count }));
    parts.push(`${s.percent}%`);
    parts.push(...speedParts(t, s));
  } else if (s.success) {
    parts.push(t('summary.finished', { count: s.success }));
  }
  if (s.failure) parts.push(t('summary.failed', { count: s.failure }));
  return (
    <span className="nb-upload-summary" data-testid="upload-summary">
      {parts.join(' · ')}
    </span>
  );
}
