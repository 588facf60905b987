import { Alert, Button, Modal, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { operatorLabel } from '../operator';
import type { DocumentEditor } from '../use-document-editor';

/**
 * What an open document has to say above its text: the version being viewed, a draft found on
 * opening, a change made elsewhere, and the choice a save over someone else's changes leaves.
 */
export function EditorNotices({ editor }: { editor: DocumentEditor }) {
  const { t } = useTranslation('editors');
  const { shown } = editor;
  return (
    <>
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
    </>
  );
}
