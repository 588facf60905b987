import { isTextLike, suffixOf } from '../../lib/file-kinds';
import type { PreviewItem } from '../../actions/viewers';

/**
 * Texts larger than this open in the streaming viewer, read-only: the editor holds the whole
 * text in the page (a save carries at most MAX_DOCUMENT_BYTES).
 */
export const TEXT_EDITOR_MAX_BYTES = 2 * 1024 * 1024;

/** Whether a file is text the text editor takes (its tree opens those, the rest it greys). */
export const isEditableText = (item: Pick<PreviewItem, 'name' | 'suffix' | 'isFolder' | 'size'>) =>
  isTextLike(item) && suffixOf(item) !== 'drawio' && item.size <= TEXT_EDITOR_MAX_BYTES;
