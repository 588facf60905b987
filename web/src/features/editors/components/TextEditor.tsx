import {
  CloseOutlined,
  DownloadOutlined,
  FolderOpenOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  SaveOutlined,
} from '@ant-design/icons';
import type { FileItem } from '@nimbus/contract';
import { Button, Modal, Tabs, Tooltip } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../stores/app';
import { startDownload } from '../../../api/bytes';
import { FileIcon } from '../../../components/FileIcon';
import type { PreviewItem, ViewerProps } from '../../../actions/viewers';
import type { DocumentEditor } from '../use-document-editor';
import { FolderTree } from './FolderTree';
import { HistoryPopover } from './HistoryPopover';
import { TextTab, type TabState } from './TextTab';
import '../editors.css';
import '../text-editor.css';

const CLEAN: TabState = { dirty: false, saving: false, shown: false };

/**
 * The text editor (spec screen "text editor"): texts and code of the owner's drive edited in
 * tabs, beside a tree of their folder; each tab saves from the version it opened (Save or
 * Ctrl+S, one version per save, a change made meanwhile asks what to do), code shows its
 * colours and a minimap, and the window goes full screen.
 */
export default function TextEditor(props: ViewerProps) {
  const { item, source, onClose } = props;
  const { t } = useTranslation('editors');
  const mobile = useAppStore((s) => s.device === 'mobile');
  const [tabs, setTabs] = useState<PreviewItem[]>([item]);
  const [activeId, setActiveId] = useState(item.id);
  const [states, setStates] = useState<Record<string, TabState>>({});
  const [full, setFull] = useState(false);
  const [treeShown, setTreeShown] = useState(!mobile);
  const [folder, setFolder] = useState(item.path);
  const editors = useRef(new Map<string, DocumentEditor>());
  const active = tabs.find((tab) => tab.id === activeId) ?? item;
  const activeState = states[active.id] ?? CLEAN;
  const anyDirty = Object.values(states).some((state) => state.dirty);
  const downloadUrl = source.downloadUrl(active);

  const register = useCallback((id: string, editor: DocumentEditor | null) => {
    if (editor) editors.current.set(id, editor);
    else editors.current.delete(id);
  }, []);
  const onState = useCallback((id: string, state: TabState) => {
    setStates((current) => ({ ...current, [id]: state }));
  }, []);

  const saveActive = useCallback(() => {
    const state = states[activeId] ?? CLEAN;
    if (state.dirty && !state.shown) void editors.current.get(activeId)?.save();
  }, [states, activeId]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        saveActive();
      }
    };
    const onLeave = (event: BeforeUnloadEvent) => {
      if (anyDirty) event.preventDefault();
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('beforeunload', onLeave);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('beforeunload', onLeave);
    };
  }, [saveActive, anyDirty]);

  const openFile = (file: FileItem) => {
    setTabs((open) => (open.some((tab) => tab.id === file.id) ? open : [...open, file]));
    setActiveId(file.id);
    if (mobile) setTreeShown(false);
  };

  /** Ask before throwing edits away; `then` runs once they may go. */
  const confirmDiscard = (then: () => void) =>
    Modal.confirm({
      title: t('leave.title'),
      content: t('leave.body'),
      okText: t('leave.discard'),
      okButtonProps: { danger: true },
      cancelText: t('leave.stay'),
      onOk: then,
    });

  const closeTab = (id: string) => {
    const remove = () => {
      if (states[id]?.dirty) editors.current.get(id)?.dropDraft();
      const left = tabs.filter((tab) => tab.id !== id);
      if (left.length === 0) return onClose();
      setTabs(left);
      setStates(({ [id]: _gone, ...rest }) => rest);
      if (activeId === id) {
        const at = tabs.findIndex((tab) => tab.id === id);
        setActiveId((left[at] ?? left[at - 1] ?? left[0]!).id);
      }
    };
    if (states[id]?.dirty) confirmDiscard(remove);
    else remove();
  };

  const close = () => {
    if (!anyDirty) return onClose();
    confirmDiscard(() => {
      for (const [id, state] of Object.entries(states))
        if (state.dirty) editors.current.get(id)?.dropDraft();
      onClose();
    });
  };

  const whole = full || mobile;
  const title = (
    <span className="nb-text-editor__bar">
      <FileIcon item={active} size={22} />
      <span className="nb-text-editor__name" data-testid="editor-title">
        {activeState.dirty ? '*' : ''}
        {active.name}
      </span>
      {activeState.dirty && !activeState.shown ? (
        <Button
          type="primary"
          size="small"
          icon={<SaveOutlined />}
          loading={activeState.saving}
          data-testid="editor-save"
          onClick={saveActive}
        >
          {t('save')}
        </Button>
      ) : null}
      {/* earlier versions are part of what a download gives (docs/ARCHITECTURE.md) */}
      {downloadUrl ? (
        <HistoryPopover
          key={active.id}
          fileId={active.id}
          onShow={(version) => void editors.current.get(active.id)?.showVersion(version)}
          onRestore={(version) => void editors.current.get(active.id)?.restore(version)}
        />
      ) : null}
      <Tooltip title={t('text.tree')}>
        <Button
          type={treeShown ? 'default' : 'text'}
          size="small"
          icon={<FolderOpenOutlined />}
          aria-label={t('text.tree')}
          aria-pressed={treeShown}
          data-testid="text-tree-toggle"
          onClick={() => setTreeShown((shown) => !shown)}
        />
      </Tooltip>
      {mobile ? null : (
        <Tooltip title={full ? t('text.exitFullScreen') : t('text.fullScreen')}>
          <Button
            type="text"
            size="small"
            icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
            aria-label={full ? t('text.exitFullScreen') : t('text.fullScreen')}
            data-testid="text-editor-full"
            onClick={() => setFull((on) => !on)}
          />
        </Tooltip>
      )}
      {downloadUrl && !mobile ? (
        <Button
          type="text"
          size="small"
          icon={<DownloadOutlined />}
          aria-label={t('text.download')}
          onClick={() => startDownload(downloadUrl, active.name)}
        />
      ) : null}
      <Button
        type="text"
        size="small"
        icon={<CloseOutlined />}
        aria-label={t('text.close')}
        data-testid="editor-close"
        onClick={close}
      />
    </span>
  );

  return (
    <Modal
      open
      onCancel={close}
      keyboard={false}
      maskClosable={false}
      closable={false}
      footer={null}
      destroyOnHidden
      centered={!whole}
      width={whole ? '100%' : 1200}
      className={`nb-text-editor${whole ? ' nb-text-editor--whole' : ''}`}
      title={title}
    >
      <div className="nb-text-editor__body" data-testid="text-editor" data-full={whole}>
        {treeShown ? (
          <aside className="nb-text-editor__tree">
            <FolderTree
              key={folder}
              folder={folder}
              activeId={active.id}
              onFolder={setFolder}
              onOpen={openFile}
            />
          </aside>
        ) : null}
        <div className="nb-text-editor__main">
          <Tabs
            className="nb-text-editor__tabs"
            type="editable-card"
            size="small"
            hideAdd
            activeKey={active.id}
            onChange={setActiveId}
            onEdit={(key, action) => {
              if (action === 'remove' && typeof key === 'string') closeTab(key);
            }}
            items={tabs.map((tab) => ({
              key: tab.id,
              label: (
                <span data-testid="text-tab" data-name={tab.name}>
                  {states[tab.id]?.dirty ? '*' : ''}
                  {tab.name}
                </span>
              ),
              closeIcon: <CloseOutlined aria-label={t('text.closeTab', { name: tab.name })} />,
            }))}
          />
          {tabs.map((tab) => (
            <TextTab
              key={tab.id}
              item={tab}
              active={tab.id === active.id}
              minimap={!mobile}
              register={register}
              onState={onState}
            />
          ))}
        </div>
      </div>
    </Modal>
  );
}
