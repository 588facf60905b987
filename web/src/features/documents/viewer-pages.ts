import { officeApi, shareVisitorApi } from '@nimbus/contract';
import { sourceAddress } from '../../actions/preview-sources';
import type { PreviewItem, PreviewSource } from '../../actions/viewers';
import { suffixOf } from '../../lib/file-kinds';
import { isOfficeDocument } from './document-kinds';

/** The bundled viewer pages, at the Preview Config's built-in addresses (API-NOTES §1.12). */
export const PDF_VIEWER_PAGE = '/pdf.js/web/viewer.html';
export const EPUB_VIEWER_PAGE = '/resource/epubjs/viewer.html';
export const ONLYOFFICE_PAGE = '/resource/onlyoffice/editor.html';

const absolute = (address: string) => new URL(address, window.location.origin).href;

/**
 * The viewer page that shows a document: an office file as the PDF the server makes of it
 * (`officeApi.pdf`, or its share twin), a PDF and an EPUB as themselves.
 */
export function documentPageAddress(item: PreviewItem, source: PreviewSource): string {
  if (isOfficeDocument(item)) {
    const pdf = sourceAddress(
      source,
      { owner: officeApi.pdf, visitor: shareVisitorApi.previewOffice },
      { id: item.id },
    );
    return `${PDF_VIEWER_PAGE}?file=${encodeURIComponent(absolute(pdf))}`;
  }
  const bytes = absolute(source.bytesUrl(item));
  if (suffixOf(item) === 'epub') return `${EPUB_VIEWER_PAGE}?url=${encodeURIComponent(bytes)}`;
  return `${PDF_VIEWER_PAGE}?file=${encodeURIComponent(bytes)}`;
}

/** The OnlyOffice editor page of one of the signed-in user's documents. */
export const onlyOfficePageAddress = (item: PreviewItem) =>
  `${ONLYOFFICE_PAGE}?id=${encodeURIComponent(item.id)}&name=${encodeURIComponent(item.name)}`;
