import { lazy } from 'react';
import { suffixOf } from '../../lib/file-kinds';
import type { Viewer } from '../../actions/viewers';
import { isOfficeDocument } from './document-kinds';

/**
 * Office documents as their PDF in the bundled PDF viewer, and PDFs and EPUBs in the bundled
 * viewer pages when the Preview Config maps them to nothing (API-NOTES §3 step 7).
 */
export const documentViewer: Viewer = {
  id: 'document',
  stage: 'document',
  accepts: (item) => isOfficeDocument(item) || ['pdf', 'epub'].includes(suffixOf(item)),
  view: lazy(() => import('./components/DocumentViewer')),
};

/** The viewers of the documents feature, for the composition root. */
export const DOCUMENT_VIEWERS: readonly Viewer[] = [documentViewer];
