import { SaveOutlined } from '@ant-design/icons';
import { Button, Modal, Space } from 'antd';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FullScreenViewer } from '../../../components/FullScreenViewer';
import type { ViewerProps } from '../../../actions/viewers';
import type { DocumentEditor } from '../use-document-editor';
import { EditorNotices } from './EditorNotices';
import { HistoryPopover } from './HistoryPopover';
import '../editors.css';

/**
 * The window around a document editor: the name with '*' while unsaved, Save only then
 * (Ctrl+S too), the history popover, the bar of a version being viewed, the choice a save
 * over someone else's changes leaves, and a question before closing over unsaved edits.
 */
export function EditorFrame({
  props,
  editor,
  tools,
  notice,
  children,
}: {
  props: ViewerProps;
  editor: DocumentEditor;
  /** A bar of the editor's own above its controls. */
  notice?: ReactNode;
  /** The editor's own controls, in a row under the bar. */
  tools?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('editors');
  const { item, source, onClose } = props;
  const { dirty, shown } = editor;
  const downloadUrl = source.downloadUrl(item);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        // a topic or line being typed counts: the save takes it
        if (!shown && editor.hasChanges()) void editor.save();
      }
    };
    const onLeave = (event: BeforeUnloadEvent) => {
      if (dirty) event.preventDefault();
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('beforeunload', onLeave);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('beforeunload', onLeave);
    };
  }, [dirty, shown, editor]);

  const close = () => {
    if (!dirty) return onClose();
    Modal.confirm({
      title: t('leave.title'),
      content: t('leave.body'),
      okText: t('leave.discard'),
      okButtonProps: { danger: true },
      cancelText: t('leave.stay'),
      onOk: () => {
        editor.dropDraft();
        onClose();
      },
    });
  };

  const actions = (
    <Space size={4}>
      {dirty && !shown ? (
        <Button
          type="primary"
          size="small"
          icon={<SaveOutlined />}
          loading={editor.saving}
          data-testid="editor-save"
          onClick={() => void editor.save()}
        >
          {t('save')}
        </Button>
      ) : null}
      {/* earlier versions are part of what a download gives (docs/ARCHITECTURE.md) */}
      {downloadUrl ? (
        <HistoryPopover
          fileId={item.id}
          onShow={(version) => void editor.showVersion(version)}
          onRestore={(version) => void editor.restore(version)}
        />
      ) : null}
    </Space>
  );

  return (
    <FullScreenViewer
      item={item}
      title={
        <span data-testid="editor-title">
          {dirty ? '*' : ''}
          {item.name}
        </span>
      }
      downloadUrl={downloadUrl}
      className="nb-editor"
      closeTestId="editor-close"
      actions={actions}
      escapeCloses={false}
      onClose={close}
    >
      <div className="nb-editor__body">
        <EditorNotices editor={editor} />
        {notice}
        {tools ? <div className="nb-editor__tools">{tools}</div> : null}
        <div className="nb-editor__surface">{children}</div>
      </div>
    </FullScreenViewer>
  );
}
