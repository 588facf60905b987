import { OFFICE_SUFFIXES } from '@nimbus/contract';
import { suffixOf } from '../../lib/file-kinds';
import type { PreviewItem } from '../../actions/viewers';

const OFFICE = new Set<string>(OFFICE_SUFFIXES);

/** Office documents LibreOffice turns into a PDF on the server. */
export const isOfficeDocument = (item: PreviewItem) => OFFICE.has(suffixOf(item));
