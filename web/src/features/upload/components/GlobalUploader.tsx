import { DRAG_OVERLAY_CLEAR_MS, formatSize } from '@nimbus/contract';
import { App } from 'antd';
import { useEffect, useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { onLiveMessage } from '../../../api/events';
import { useAppStore } from '../../../stores/app';
import { useSessionStore } from '../../../stores/session';
import { localValue } from '../../../stores/storage';
import { useCurrentFolder } from '../../../stores/current-folder';
import { CHUNK_SIZE_KEY, normalizeChunkSize } from '../chunk-plan';
import { hasFiles, readDrop } from '../drop';
import { registerPickers } from '../pickers';
import { uploadTitle } from '../progress';
import { useUploadStore } from '../store';
import type { PickedFile } from '../types';
import { setUploadParams, uploader } from '../uploader';
import { useUploadSummary } from '../use-upload';
import '../upload.css';
import { DropOverlay } from './DropOverlay';
import { TRANSFER_PATH, UploadBall } from './UploadBall';
import { UploadPanel } from './UploadPanel';

/** Pages where dropping files never uploads (spec §2: drag-upload is disabled on some routes). */
const NO_DROP_PREFIXES = ['/setting', '/s/', '/s_m', '/login'];

function pickedFrom(input: HTMLInputElement): PickedFile[] {
  const files = Array.from(input.files ?? []);
  // the same files can be chosen again right away
  input.value = '';
  return files.map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

/** `NN% | speed` as the page title while uploading; the page's own title comes back after. */
function useUploadTitle(): void {
  const summary = useUploadSummary();
  const base = useRef<string | null>(null);
  const lastSet = useRef('');
  useEffect(() => {
    if (summary.isUploading) {
      if (document.title !== lastSet.current) base.current = document.title;
      lastSet.current = uploadTitle(summary);
      document.title = lastSet.current;
    } else if (base.current !== null) {
      if (document.title === lastSet.current) document.title = base.current;
      base.current = null;
      lastSet.current = '';
    }
  }, [summary]);
}

/** Every upload done well this long: the finished list clears and the panel goes. */
const AUTO_HIDE_MS = 4000;

/**
 * Once every upload has finished well, the list clears and the panel and the ball go after a
 * few seconds (the "upload finished" note has said it); a failure or a paused file keeps them
 * until dismissed. Not under the pointer, nor on the transfer page, where the list is the page.
 */
function useAutoHide(): void {
  const summary = useUploadSummary();
  const hovered = useUploadStore((s) => s.panelHovered);
  const { pathname } = useLocation();
  const allDone = summary.count > 0 && summary.success === summary.count;
  const watched = hovered || pathname === TRANSFER_PATH;
  useEffect(() => {
    if (!allDone || watched) return;
    const timer = window.setTimeout(() => {
      uploader.clearFinished();
      useUploadStore.setState({ panelOpen: false, panelHovered: false });
    }, AUTO_HIDE_MS);
    return () => window.clearTimeout(timer);
  }, [allDone, watched]);
}

/**
 * The global uploader, mounted once in the main layout: the file inputs, the drop overlay, the
 * ball and the panel; the leave-page warning, the title and the chunk-size message.
 */
export function GlobalUploader() {
  const { t } = useTranslation('upload');
  const { message } = App.useApp();
  const folder = useCurrentFolder();
  const token = useSessionStore((s) => s.token);
  const username = useSessionStore((s) => s.username);
  const isDragEnabled = useAppStore((s) => s.isUploadDragEnabled);
  const isDesktop = useAppStore((s) => s.device === 'desktop');
  const { pathname } = useLocation();
  const summary = useUploadSummary();
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const againInput = useRef<HTMLInputElement>(null);
  const againId = useRef('');
  const pickTarget = useRef<string | undefined>(undefined);
  const wasUploading = useRef(false);

  useEffect(() => {
    setUploadParams(folder);
    if (folder.writable) useUploadStore.setState({ lastFolder: folder });
  }, [folder]);

  useEffect(() => {
    if (token && username) void uploader.restore(username);
  }, [token, username]);

  useEffect(() => {
    registerPickers({
      files: (target) => {
        pickTarget.current = target;
        filesInput.current?.click();
      },
      folder: (target) => {
        pickTarget.current = target;
        folderInput.current?.click();
      },
      again: (id) => {
        againId.current = id;
        againInput.current?.click();
      },
    });
    return () => registerPickers(null);
  }, []);

  // spec §3: the server may ask for another chunk size
  useEffect(
    () =>
      onLiveMessage('uploaderChunkSize', (msg) => {
        const size = (msg.body as { chunkSize?: unknown } | null)?.chunkSize;
        if (typeof size === 'number' && normalizeChunkSize(size) === size) {
          localValue.set(CHUNK_SIZE_KEY, String(size));
        }
      }),
    [],
  );

  useEffect(() => {
    const online = () => uploader.retryConnectionFailures();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, []);

  // spec §5: leaving the page while uploading warns (a paused file would have to be chosen again)
  const items = useUploadStore((s) => s.items);
  const hasLiveWork =
    summary.isUploading || items.some((item) => item.status === 'paused' && !item.needsFile);
  useEffect(() => {
    if (!hasLiveWork) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [hasLiveWork]);

  useUploadTitle();
  useAutoHide();

  // spec §9: the success note stays 3 s
  useEffect(() => {
    const done = wasUploading.current && !summary.isUploading;
    wasUploading.current = summary.isUploading;
    if (done && summary.success > 0 && summary.failure === 0 && summary.paused === 0) {
      void message.success({
        content: t('allDone', { count: summary.success }),
        duration: 3,
        key: 'upload-done',
      });
    }
  }, [summary.isUploading, summary.success, summary.failure, summary.paused, message, t]);

  const dropEnabled =
    Boolean(token) &&
    isDragEnabled &&
    folder.writable &&
    !NO_DROP_PREFIXES.some((prefix) => pathname.startsWith(prefix));

  useEffect(() => {
    const { setDragging } = useUploadStore.getState();
    let timer = 0;
    const onOver = (event: DragEvent) => {
      if (!hasFiles(event.dataTransfer)) return;
      // a file dropped beside the target must not replace the app in the tab
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = dropEnabled ? 'copy' : 'none';
      if (!dropEnabled) return;
      window.clearTimeout(timer);
      if (!useUploadStore.getState().dragging) setDragging(true);
    };
    const onLeave = (event: DragEvent) => {
      if (!hasFiles(event.dataTransfer)) return;
      window.clearTimeout(timer);
      // spec §9: the overlay clears 100 ms after the drag leaves
      timer = window.setTimeout(() => setDragging(false), DRAG_OVERLAY_CLEAR_MS);
    };
    const onDrop = (event: DragEvent) => {
      if (!hasFiles(event.dataTransfer)) return;
      event.preventDefault();
      window.clearTimeout(timer);
      setDragging(false);
      if (!dropEnabled || !event.dataTransfer) return;
      readDrop(event.dataTransfer)
        .then(({ files, emptyFolders }) => uploader.add(files, emptyFolders))
        .catch((error: unknown) => console.error('Failed to add files', error));
    };
    window.addEventListener('dragenter', onOver);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('dragenter', onOver);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
      setDragging(false);
    };
  }, [dropEnabled]);

  const onPicked = (event: ChangeEvent<HTMLInputElement>) => {
    const target = pickTarget.current;
    pickTarget.current = undefined;
    uploader
      .add(pickedFrom(event.currentTarget), [], target)
      .catch((error: unknown) => console.error('Failed to add files', error));
  };

  const onChosenAgain = (event: ChangeEvent<HTMLInputElement>) => {
    const [picked] = pickedFrom(event.currentTarget);
    const item = uploader.get(againId.current);
    if (!picked || !item) return;
    if (!uploader.reattach(item.id, picked.file)) {
      void message.error({
        content: t('notSameFile', { name: item.name, size: formatSize(item.size) }),
        duration: 3,
      });
    }
  };

  return (
    <>
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        data-testid="upload-input-files"
        onChange={onPicked}
      />
      <input
        ref={(element) => {
          folderInput.current = element;
          element?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        data-testid="upload-input-folder"
        onChange={onPicked}
      />
      <input
        ref={againInput}
        type="file"
        hidden
        tabIndex={-1}
        data-testid="upload-input-again"
        onChange={onChosenAgain}
      />
      <DropOverlay path={folder.path} />
      {isDesktop ? <UploadPanel /> : null}
      <UploadBall />
    </>
  );
}
