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
  archive: {
    extract: 'Extract here',
    extracting: 'Extracting "{{name}}"…',
    extracted: 'Extracted into "{{name}}"',
    unreadable: 'This archive cannot be read',
    summary_one: '{{count}} file, {{size}} unpacked',
    summary_other: '{{count}} files, {{size}} unpacked',
    truncated: 'This archive holds more entries than are listed here.',
    empty: 'Nothing in this folder',
  },
  text: {
    truncated: 'Showing the first {{size}}. Download the file to see all of it.',
    empty: 'This file is empty',
    encoding: 'Encoding: {{name}}',
  },
};

export default preview;
