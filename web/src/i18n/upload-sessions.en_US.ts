/** English texts of the uploads under way on the server (own and share visitors'). */
const sessions = {
  open: 'Uploads on the server',
  title: 'Uploads under way on the server',
  hint: 'Uploads into your drive that have not finished: yours from any device, and those of visitors of your shares. Each reserves its full size of your space until it finishes or is cancelled.',
  empty: 'No upload is under way',
  byMe: 'You',
  byVisitor: 'Visitor of "{{share}}" ({{address}})',
  unknownShare: 'a removed share',
  received: '{{received}} of {{total}} received',
  lastActivity: 'Last activity {{date}}',
  cancel: 'Cancel upload',
  keep: 'Keep',
  cancelConfirm: 'Cancel the upload of "{{name}}"? Its bytes are removed and its space is freed.',
  cancelled: 'Upload of "{{name}}" cancelled',
  refresh: 'Refresh',
};

export default sessions;
