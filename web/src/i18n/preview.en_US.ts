/** English texts of the viewers (the `preview` namespace). */
const preview = {
  download: 'Download',
  close: 'Close',
  loadFailed: 'Could not load the preview',
  none: {
    title: 'No preview for this file',
    body: '"{{name}}" ({{size}}) cannot be previewed here. Download it to open it on your device?',
    bodyNoDownload: '"{{name}}" ({{size}}) cannot be previewed here.',
  },
  text: {
    truncated: 'Showing the first {{size}}. Download the file to see all of it.',
    empty: 'This file is empty',
    encoding: 'Encoding: {{name}}',
  },
};

export default preview;
