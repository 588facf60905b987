import { SaveOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space } from 'antd';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FullScreenViewer } from '../../preview/components/FullScreenViewer';
import type { ViewerProps } from '../../preview/registry';
import { operatorLabel } from '../operator';
import type { DocumentEditor } from '../use-document-editor';
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
        if (dirty && !shown) void editor.save();
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
        {shown ? (
          <Alert
            className="nb-editor__notice"
            type="info"
            showIcon
            data-testid="version-bar"
            message={t('version.showing', {
              date: shown.version.uploadDate,
              who: operatorLabel(shown.version.metadata.operator, t),
            })}
            action={
              <Space>
                <Button size="small" onClick={() => void editor.restore(shown.version)}>
                  {t('history.restore')}
                </Button>
                <Button
                  size="small"
                  type="primary"
                  data-testid="version-close"
                  onClick={editor.closeVersion}
                >
                  {t('version.back')}
                </Button>
              </Space>
            }
          />
        ) : null}
        {editor.draft ? (
          <Alert
            className="nb-editor__notice"
            type="warning"
            showIcon
            data-testid="draft-bar"
            message={t('draft.found', { date: editor.draft.updateDate })}
            action={
              <Space>
                <Button size="small" type="primary" onClick={editor.restoreDraft}>
                  {t('draft.restore')}
                </Button>
                <Button size="small" onClick={editor.dropDraft}>
                  {t('draft.discard')}
                </Button>
              </Space>
            }
          />
        ) : null}
        {editor.changedElsewhere && !editor.conflict ? (
          <Alert
            className="nb-editor__notice"
            type="warning"
            showIcon
            data-testid="changed-elsewhere"
            message={t('conflict.elsewhere')}
            action={
              <Button size="small" onClick={() => void editor.reload()}>
                {t('conflict.reload')}
              </Button>
            }
          />
        ) : null}
        {notice}
        {tools ? <div className="nb-editor__tools">{tools}</div> : null}
        <div className="nb-editor__surface">{children}</div>
      </div>
      <Modal
        open={editor.conflict !== null}
        title={t('conflict.title')}
        onCancel={editor.dismissConflict}
        footer={null}
        destroyOnHidden
      >
        <p>{t('conflict.body', { date: editor.conflict?.updateDate ?? '' })}</p>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Button block data-testid="conflict-reload" onClick={() => void editor.reload()}>
            {t('conflict.reload')}
          </Button>
          <Button
            block
            type="primary"
            data-testid="conflict-keep"
            onClick={() => void editor.save(true)}
          >
            {t('conflict.keepMine')}
          </Button>
          <Button block data-testid="conflict-copy" onClick={() => void editor.saveAsCopy()}>
            {t('conflict.copy')}
          </Button>
        </Space>
      </Modal>
    </FullScreenViewer>
  );
}
