import { DOCUMENT_VIEWERS } from '../features/documents/viewers';
import { EDITOR_VIEWERS } from '../features/editors/viewers';
import { MEDIA_VIEWERS } from '../features/media/viewers';
import type { Preview, Viewer } from '../actions/viewers';
import { usePreview } from '../features/preview/use-preview';
import { PREVIEW_VIEWERS } from '../features/preview/viewers';
import { IMAGE_VIEWERS } from '../features/images/viewers';

/**
 * Every way to open a file (ARCHITECTURE §6, like the action registry): each feature
 * contributes its viewers, one line each; the dispatch order is the viewers' stages
 * (PREVIEW_STAGES), and within a stage the order of this list.
 */
export const VIEWERS: readonly Viewer[] = [
  ...EDITOR_VIEWERS,
  ...PREVIEW_VIEWERS,
  ...IMAGE_VIEWERS,
  ...MEDIA_VIEWERS,
  ...DOCUMENT_VIEWERS,
];

/**
 * Opening files with every viewer: the drive, the mount browser and the share page reach it as
 * `useFilePreview` (actions/viewers.ts), through the context app/Registries.tsx provides.
 */
export const usePreviewOfAll = (): Preview => usePreview(VIEWERS);
