/** English texts of the document viewers (the `documents` namespace): PDF, EPUB, office. */
const documents = {
  loading: 'Loading the document…',
  converting: 'Preparing the document for viewing…',
  failed: 'This document could not be shown',
  badAddress: 'This viewer only opens files of this drive',
  noFile: 'No file was given to this viewer',
  pdf: {
    previous: 'Previous page',
    next: 'Next page',
    page: 'Page',
    ofPages: 'of {{count}}',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
    zoom: 'Zoom',
    fitWidth: 'Page width',
    fitPage: 'Whole page',
    auto: 'Automatic',
    find: 'Find in document',
    findNext: 'Next match',
    findPrevious: 'Previous match',
    notFound: 'Not found',
    password: 'This PDF is protected. Enter its password:',
    wrongPassword: 'Wrong password. Try again:',
  },
  epub: {
    previous: 'Previous page',
    next: 'Next page',
    contents: 'Contents',
    fontSmaller: 'Smaller text',
    fontLarger: 'Larger text',
  },
  office: {
    title: '{{name}} (PDF preview)',
  },
};

export default documents;
