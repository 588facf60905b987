/** English texts of the gallery viewer (the `images` namespace). */
const images = {
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  fit: 'Fit to screen',
  rotateLeft: 'Rotate left',
  rotateRight: 'Rotate right',
  photo: 'Photo',
  info: 'Details',
  download: 'Download',
  close: 'Close',
  previous: 'Previous',
  next: 'Next',
  loadFailed: 'Could not load this image',
  webp: {
    title: 'Photo storage',
    label: 'Store uploaded photos as WebP',
    hint: 'New JPEG, PNG and TIFF photos are re-encoded as WebP when that makes them smaller, and renamed to .webp. Photos already stored stay as they are.',
    saved: 'Saved',
  },
  facts: {
    dimensions: 'Dimensions',
    format: 'Format',
    size: 'Size',
    camera: 'Camera',
    lens: 'Lens',
    takenAt: 'Taken',
    exposure: 'Exposure',
    aperture: 'Aperture',
    iso: 'ISO',
    focalLength: 'Focal length',
    software: 'Software',
    none: 'No details for this image',
  },
};

export default images;
