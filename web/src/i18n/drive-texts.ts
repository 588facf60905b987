import i18n from 'i18next';
import drive from './drive.en_US';

// Imported by the drive's and the share pages' layouts: their English texts join i18next before
// anything of theirs is drawn. Those layouts are loaded through `withDriveTexts` (i18n/index.ts),
// which brings the language on screen beside them.
for (const [ns, texts] of Object.entries(drive))
  i18n.addResourceBundle('en_US', ns, texts, true, true);
