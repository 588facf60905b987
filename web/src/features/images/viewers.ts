import { lazy } from 'react';
import type { Viewer } from '../../actions/viewers';
import { isGalleryImage } from '../../actions/thumbnails';

/** The folder's images in a gallery: zoom, rotate, previous and next, EXIF. */
export const galleryViewer: Viewer = {
  id: 'image',
  stage: 'image',
  accepts: (item) => isGalleryImage(item),
  view: lazy(() => import('./components/GalleryViewer')),
};

/** The viewers of the images feature, for the composition root. */
export const IMAGE_VIEWERS: readonly Viewer[] = [galleryViewer];
