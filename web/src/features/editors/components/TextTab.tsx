import { Alert, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { languageOf } from '../../../lib/highlight';
import type { PreviewItem } from '../../../actions/viewers';
import { useDocumentEditor, type DocumentEditor } from '../use-document-editor';
import { CodeArea } from './CodeArea';
import { EditorNotices } from './EditorNotices';

/** What the window shows of a tab: '*' while unsaved, Save, whether a version is on view. */
export interface TabState {
  dirty: boolean;
  saving: boolean;
  shown: boolean;
}

/**
 * One open text in the text editor: its document's life (the version it was opened at, saving
 * from it, conflicts, drafts, versions viewed) and its code area. Tabs stay mounted while
 * another is on view, so each keeps its text, caret and undo.
 */
export function TextTab({
  item,
  active,
  minimap,
  register,
  onState,
}: {
  item: PreviewItem;
  active: boolean;
  minimap: boolean;
  /** The window keeps each tab's editor to save it, show a version or close it. */
  register: (id: string, editor: DocumentEditor | null) => void;
  onState: (id: string, state: TabState) => void;
}) {
  const { t } = useTranslation('editors');
  const editor = useDocumentEditor(item);
  const { dirty, saving, shown } = editor;
  const text = editor.document.data?.contentText;
  const language = languageOf(item.name, item.suffix);

  useEffect(() => register(item.id, editor));
  useEffect(() => () => register(item.id, null), [item.id, register]);
  useEffect(
    () => onState(item.id, { dirty, saving, shown: shown !== null }),
    [item.id, dirty, saving, shown, onState],
  );

  return (
    <div
      className="nb-text-editor__pane"
      hidden={!active}
      data-testid="text-editor-pane"
      data-name={item.name}
    >
      <EditorNotices editor={editor} />
      {editor.document.isError ? (
        <Alert type="error" showIcon className="nb-editor__notice" message={t('text.loadFailed')} />
      ) : text === undefined ? (
        <Spin className="nb-editor__loading" />
      ) : (
        <CodeArea
          initial={text}
          language={language}
          readOnly={false}
          minimap={minimap && language !== null}
          label={item.name}
          surfaceRef={editor.surface}
          onChange={editor.changed}
        />
      )}
    </div>
  );
}
