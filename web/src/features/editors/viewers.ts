import { lazy } from 'react';
import { suffixOf } from '../files/file-kinds';
import { useSessionStore } from '../../stores/session';
import type { PreviewItem, PreviewSource, Viewer } from '../preview/registry';

/** Markdown documents the owner edits (a share's visitor reads them as text). */
export const MARKDOWN_SUFFIXES: readonly string[] = ['md', 'markdown'];
/** Mind maps in the KityMinder shape. */
export const MIND_MAP_SUFFIXES: readonly string[] = ['mind', 'km'];

/** The signed-in user's own file (not a visitor's, nor a mounted share's). */
const isMine = (item: PreviewItem, source: PreviewSource) =>
  source.kind === 'owner' &&
  (item.userId === undefined || item.userId === useSessionStore.getState().userId);

export const markdownEditor: Viewer = {
  id: 'markdown',
  stage: 'editor',
  accepts: (item: PreviewItem, { source }) =>
    isMine(item, source) && MARKDOWN_SUFFIXES.includes(suffixOf(item)),
  view: lazy(() => import('./components/MarkdownEditor')),
};

export const mindMapEditor: Viewer = {
  id: 'mind-map',
  stage: 'editor',
  accepts: (item: PreviewItem, { source }) =>
    isMine(item, source) && MIND_MAP_SUFFIXES.includes(suffixOf(item)),
  view: lazy(() => import('./components/MindMapEditor')),
};

/** The viewers of the editors feature, for the composition root. */
export const EDITOR_VIEWERS: readonly Viewer[] = [markdownEditor, mindMapEditor];
