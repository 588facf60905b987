/** English texts of a file's earlier versions (the `history` namespace): its History dialog. */
const history = {
  action: 'History',
  title: 'History of “{{name}}”',
  intro:
    'Each time this file was replaced (an upload over it, a save, WebDAV, a restore), what it held was kept here, newest first.',
  empty: 'No earlier versions yet.',
  emptyHint:
    'Text, markdown, mind-map and office files keep an earlier version each time they are replaced; other files replaced go to the trash.',
  failed: 'The versions could not be loaded.',
  retry: 'Try again',
  more: 'Show older versions',
  preview: 'Preview',
  download: 'Download',
  restore: 'Restore',
  restoreConfirm: 'Restore this version? The current content is kept as a version first.',
  restored: 'Restored the version of {{date}}',
  previewTitle: '“{{name}}” as of {{date}}',
  close: 'Close',
  cancel: 'Cancel',
  shareVisitor: 'a visitor of share link {{link}}',
  kept_one: 'It keeps the newest version; older ones go once a day old.',
  kept_other: 'It keeps the newest {{count}} versions; older ones go once a day old.',
  keptDays_one: 'It keeps the newest version.',
  keptDays_other:
    'It keeps the newest {{count}} versions, none older than {{days}} days except the newest.',
};

export default history;
