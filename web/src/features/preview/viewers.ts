import { lazy } from 'react';
import { isExtractable, isTextLike, suffixOf } from '../../lib/file-kinds';
import { iframeRuleFor } from '../../lib/iframe-rules';
import type { Viewer } from '../../actions/viewers';
import { previewSuffix } from './use-preview';

const TextViewer = lazy(() => import('./components/TextViewer'));

/** Source code and the known text suffixes, highlighted (API-NOTES §3 step 3). */
export const codeViewer: Viewer = {
  id: 'code',
  stage: 'code',
  accepts: (item) => isTextLike(item),
  view: TextViewer,
};

/** Files no other viewer opens and that are not obviously binary: their text, if they are text. */
const BINARY = new Set(
  'exe dll so dylib bin iso dmg img msi apk ipa deb rpm class o a obj lib pyc wasm zip rar 7z gz bz2 xz zst tar jar tgz cab pdf doc docx xls xlsx ppt pptx odt ods odp pages numbers key ttf otf woff woff2 eot psd ai sketch fig db sqlite mdb'.split(
    ' ',
  ),
);
export const textViewer: Viewer = {
  id: 'text',
  stage: 'text',
  accepts: (item) =>
    !['image', 'video', 'audio'].includes(item.type) && !BINARY.has(suffixOf(item)),
  view: TextViewer,
};

/** The admin's iframe viewers by suffix (Preview Config). */
export const iframeViewer: Viewer = {
  id: 'iframe',
  stage: 'iframe',
  accepts: (item, { iframe }) => Boolean(iframeRuleFor(iframe, previewSuffix(item))),
  view: lazy(() => import('./components/IframeViewer')),
};

/** zip, jar, tar, tar.gz, 7z and rar: a browser inside the archive, with extraction for its owner. */
export const archiveViewer: Viewer = {
  id: 'archive',
  stage: 'archive',
  accepts: (item) => isExtractable(item),
  view: lazy(() => import('./components/ArchiveViewer')),
};

/** The viewers of the preview feature, for the composition root. */
export const PREVIEW_VIEWERS: readonly Viewer[] = [
  iframeViewer,
  codeViewer,
  archiveViewer,
  textViewer,
];
