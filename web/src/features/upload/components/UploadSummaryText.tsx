import { useTranslation } from 'react-i18next';
import { formatSpeed } from '../progress';
import { useUploadSummary } from '../use-upload';

/** "3 of 10 done · 4.20 MB/s", "10 uploaded", "2 failed". */
export function UploadSummaryText() {
  const { t } = useTranslation('upload');
  const s = useUploadSummary();
  const parts: string[] = [];
  if (s.isUploading) {
    parts.push(t('summary.progress', { done: s.success, count: s.count }));
    parts.push(formatSpeed(s.speed));
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
