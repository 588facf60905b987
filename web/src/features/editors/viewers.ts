import { lazy } from 'react';
import { FILE_AUTHORITY } from '../../actions/authorities';
import { suffixOf } from '../../lib/file-kinds';
import { useSessionStore } from '../../stores/session';
import { isEditableText } from './editable';
import { iframeRuleFor } from '../../lib/iframe-rules';
import type { DispatchContext, PreviewItem, Viewer } from '../../actions/viewers';

/** Markdown documents the owner edits (a share's visitor reads them as text). */
export const MARKDOWN_SUFFIXES: readonly string[] = ['md', 'markdown'];
/** Mind maps in the KityMinder shape. */
export const MIND_MAP_SUFFIXES: readonly string[] = ['mind', 'km'];

/**
 * The signed-in user's own file (not a visitor's, nor a mounted share's), and a role that may
 * write it (the server's rule for a save): anyone else reads it in a viewer.
 */
const mayEdit = (item: PreviewItem, { source, can }: DispatchContext) =>
  source.kind === 'owner' &&
  (item.userId === undefined || item.userId === useSessionStore.getState().userId) &&
  can(FILE_AUTHORITY.upload);

export const markdownEditor: Viewer = {
  id: 'markdown',
  stage: 'editor',
  accepts: (item, context) => mayEdit(item, context) && MARKDOWN_SUFFIXES.includes(suffixOf(item)),
  view: lazy(() => import('./components/MarkdownEditor')),
};

export const mindMapEditor: Viewer = {
  id: 'mind-map',
  stage: 'editor',
  accepts: (item, context) => mayEdit(item, context) && MIND_MAP_SUFFIXES.includes(suffixOf(item)),
  view: lazy(() => import('./components/MindMapEditor')),
};

/** Text and code, unless the Preview Config sends the suffix to a viewer of the admin's choice. */
export const textEditor: Viewer = {
  id: 'text-editor',
  stage: 'editor',
  accepts: (item, context) =>
    mayEdit(item, context) &&
    isEditableText(item) &&
    !iframeRuleFor(context.iframe, suffixOf(item)),
  view: lazy(() => import('./components/TextEditor')),
};

/** The viewers of the editors feature, for the composition root (the first that takes a file wins). */
export const EDITOR_VIEWERS: readonly Viewer[] = [markdownEditor, mindMapEditor, textEditor];
