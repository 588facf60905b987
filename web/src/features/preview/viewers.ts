import { lazy } from 'react';
import { isTextLike, isViewableImage } from '../files/file-kinds';
import { iframeRuleFor } from './iframe-rules';
import type { Viewer } from './registry';
import { previewSuffix } from './use-preview';

/** A file's text, read-only, from its head. */
export const textViewer: Viewer = {
  id: 'text',
  stage: 'code',
  accepts: (item) => isTextLike(item),
  view: lazy(() => import('./components/TextViewer')),
};

/** The admin's iframe viewers by suffix (Preview Config). */
export const iframeViewer: Viewer = {
  id: 'iframe',
  stage: 'iframe',
  accepts: (item, { iframe }) => Boolean(iframeRuleFor(iframe, previewSuffix(item))),
  view: lazy(() => import('./components/IframeViewer')),
};

/** Until the gallery viewer of the images feature replaces it. */
export const interimImageViewer: Viewer = {
  id: 'image',
  stage: 'image',
  accepts: (item) => isViewableImage(item),
  view: lazy(() => import('./components/InterimImageViewer')),
};

/** The viewers of the preview feature, for the composition root. */
export const PREVIEW_VIEWERS: readonly Viewer[] = [iframeViewer, textViewer];
