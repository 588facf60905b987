import type { UploadSummary } from '../progress';

/** The counts of the upload list as data attributes, where tests and tools read the progress. */
export function summaryData(summary: UploadSummary) {
  return {
    'data-count': summary.count,
    'data-success': summary.success,
    'data-failure': summary.failure,
    'data-unfinished': summary.unfinished,
    'data-percent': summary.percent,
  };
}
