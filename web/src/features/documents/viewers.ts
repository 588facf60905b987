import { OFFICE_SUFFIXES } from '@nimbus/contract';
import { lazy } from 'react';
import { suffixOf } from '../files/file-kinds';
import type { PreviewItem, Viewer } from '../preview/registry';

const OFFICE = new Set<string>(OFFICE_SUFFIXES);

/** Office documents LibreOffice turns into a PDF on the server. */
export const isOfficeDocument = (item: PreviewItem) => OFFICE.has(suffixOf(item));

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
