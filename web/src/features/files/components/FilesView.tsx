import { ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Breadcrumb, Button, Result, Spin } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../api/client';
import { EmptyState } from '../../../components/EmptyState';
import { formatSize } from '../../../lib/format';
import { useAppStore } from '../../../stores/app';
import { authKeys } from '../../auth/api';
import { removeMount, shareKeys } from '../../share/api';
import { useTags } from '../../tags/api';
import { FILE_AUTHORITY } from '../../../actions/authorities';
import { isEnabled, runAction } from '../../../actions/registry';
import {
  ACTIONS,
  SHORTCUT_ACTIONS,
  menuFor,
  useAuthorityCheck,
} from '../../../app/action-registry';
import {
  NEW_FILE_KINDS,
  pasteAuthority,
  type ActionContext,
  type FileAction,
  type FileCommands,
  type NewFileKind,
  type ViewMode,
  type ViewState,
} from '../actions';
import {
  BULK_IDS,
  PAGE_SIZE,
  addFile,
  downloadPackage,
  checkMoveCopy,
  clearTrash,
  copyItems,
  createFolder,
  duplicateItem,
  extractArchive,
  fileInfo,
  fileKeys,
  fileUrl,
  isListable,
  isPackageDownloadAllowed,
  moveItems,
  recordShift,
  rememberFolderId,
  renameItem,
  resolveFolderId,
  restoreItems,
  setFavorite,
  startDownload,
  sweepItems,
  trashItems,
  useFolderId,
} from '../api';
import { putOnClipboard, removeFromClipboard, useFileClipboard } from '../clipboard';
import { setCurrentFolder, setCurrentFolderRefresh } from '../current-folder';
import { DRAG_TYPE, blankDragImage, canDropInto, useDragStore, type DropTarget } from '../drag';
import { isViewableImage, openKindOf } from '../file-kinds';
import { normalizeFolderPath, parentFolderPath } from '../folder-path';
import { installLiveListings } from '../live';
import { insertItem, mapItems, removeItems, sumSizes, updateItem } from '../listing';
import { freeName } from '../names';
import { EMPTY_SELECTION, clickSelection, stepSelection, type Selection } from '../selection';
import { isTypingTarget, matchShortcut } from '../shortcuts';
import { childPathOf, fullPathOf, ROOT_FOLDER_ID, type FileItem, type ListingKey } from '../types';
import {
  loadAllPages,
  patchListings,
  refreshFolder,
  refreshListing,
  useListing,
} from '../use-listing';
import { useFileFormat } from '../use-format';
import {
  FILE_VIEWS,
  SORT_PROPS,
  isFlatView,
  type FileViewKind,
  type SortOrder,
  type SortProp,
} from '../view-kinds';
import { ContextMenu, type MenuRequest } from './ActionMenu';
import { ClipboardTray } from './ClipboardTray';
import { DetailsDrawer } from './DetailsDrawer';
import { DragChip } from './DragChip';
import { FileCollection, type CollectionApi, type CollectionHandlers } from './FileCollection';
import { FileIcon } from './FileIcon';
import { FilesToolbar } from './FilesToolbar';
import { ImageViewer } from './ImageViewer';
import { MoveCopyDialog, type MoveCopyRequest } from './MoveCopyDialog';
import { NameDialog, type NameDialogRequest } from './NameDialog';
import { TextPreviewDialog } from './TextPreviewDialog';
import '../files.css';

installLiveListings();

export type { ViewMode };

function readViewMode(params: URLSearchParams): ViewMode {
  return params.get('vmode') === 'list' ? 'list' : 'grid';
}

/** Forwarders that never change identity, calling the latest implementation. */
function useStable<T extends object>(impl: T): T {
  const latest = useRef(impl);
  useLayoutEffect(() => {
    latest.current = impl;
  });
  return useMemo(() => {
    const out = {} as Record<string, unknown>;
    for (const key of Object.keys(impl)) {
      out[key] = (...args: unknown[]) =>
        (latest.current as Record<string, (...a: unknown[]) => unknown>)[key]!(...args);
    }
    return out as T;
    // the keys are fixed; the forwarders read the latest functions
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

interface MoveLike {
  id: string;
  name: string;
  path: string;
  isFolder: boolean;
}

/**
 * The file browser: the home folder tree and the drive-wide views (recent, type views,
 * favorites, trash). Folder, sort and view mode live in the URL; the listing in TanStack Query;
 * selection and dialogs here. Every action comes from one registry (actions.tsx).
 */
export function FilesView({ kind }: { kind: FileViewKind }) {
  const { t } = useTranslation('files');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const fmt = useFileFormat();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const clipboard = useFileClipboard();
  const can = useAuthorityCheck();
  const config = FILE_VIEWS[kind];

  // ---- URL state --------------------------------------------------------------------------
  const vmode = readViewMode(params);
  const sortProp = (SORT_PROPS as string[]).includes(params.get('sortableProp') ?? '')
    ? (params.get('sortableProp') as SortProp)
    : config.defaultSort.prop;
  const order: SortOrder =
    params.get('order') === 'ascending' || params.get('order') === 'descending'
      ? (params.get('order') as SortOrder)
      : config.defaultSort.order;
  const isHome = kind === 'home';
  const path = isHome ? normalizeFolderPath(params.get('path')) : '';
  const highlightParam = params.get('highlight');
  const flat = isFlatView(pathname, params);
  const isTrash = kind === 'trash';
  const tagId = params.get('tagId');
  const listable = isListable(kind) && (kind !== 'tag' || Boolean(tagId));

  const listingKey: ListingKey = useMemo(
    () => ({ kind, path, sortProp, order, ...(tagId ? { tagId } : {}) }),
    [kind, path, sortProp, order, tagId],
  );

  const update = useCallback(
    (changes: Record<string, string | null>) => {
      const next = new URLSearchParams(params);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) next.delete(key);
        else next.set(key, value);
      }
      setParams(next, { replace: true });
    },
    [params, setParams],
  );

  /** A link to a folder of the tree, keeping the view mode and sort. */
  const linkTo = useCallback(
    (folder: string, highlight?: string) => {
      const next = new URLSearchParams();
      if (params.get('vmode')) next.set('vmode', vmode);
      if (isHome && params.get('sortableProp')) next.set('sortableProp', sortProp);
      if (isHome && params.get('order')) next.set('order', order);
      if (folder !== '/') next.set('path', folder);
      if (highlight) next.set('highlight', highlight);
      const query = next.toString();
      return query ? `/?${query}` : '/';
    },
    [params, vmode, isHome, sortProp, order],
  );

  /** The location column of drive-wide views opens the folder with the item highlighted. */
  const locationLink = useCallback((folder: string, name: string) => {
    const next = new URLSearchParams({ path: folder, highlight: name });
    return `/?${next.toString()}`;
  }, []);

  // ---- data -------------------------------------------------------------------------------
  const folderId = useFolderId(path, isHome, queryClient);
  const { query, items, total } = useListing(listingKey, listable);
  const folderMissing =
    isHome &&
    ((folderId.error instanceof ApiError && folderId.error.code === 13) ||
      (query.error instanceof ApiError && query.error.code === 13));
  const writable = isHome && !folderMissing;

  const { data: tags } = useTags();
  const tag =
    kind === 'tag' && tagId ? tags?.find((item) => (item.tagId ?? item.id) === tagId) : undefined;

  // ---- UI state ---------------------------------------------------------------------------
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [renamingId, setRenamingId] = useState<string | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [menu, setMenu] = useState<MenuRequest | null>(null);
  const [nameDialog, setNameDialog] = useState<NameDialogRequest | null>(null);
  const [moveRequest, setMoveRequest] = useState<MoveCopyRequest | null>(null);
  const [imageId, setImageId] = useState<string | null>(null);
  const [textItem, setTextItem] = useState<FileItem | null>(null);
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const collection = useRef<CollectionApi>(null);
  const marqueeBase = useRef<ReadonlySet<string>>(new Set());
  // select all, while the items not loaded yet arrive
  const [selectingAll, setSelectingAll] = useState<{ loaded: number; total: number } | null>(null);
  const selectAllRun = useRef<AbortController | null>(null);
  const cancelSelectAll = useCallback(() => {
    selectAllRun.current?.abort();
    selectAllRun.current = null;
    setSelectingAll(null);
  }, []);
  useEffect(() => cancelSelectAll, [listingKey, cancelSelectAll]);

  // a new folder or view starts with nothing selected
  const [shownFolder, setShownFolder] = useState(`${kind}|${path}`);
  if (shownFolder !== `${kind}|${path}`) {
    setShownFolder(`${kind}|${path}`);
    setSelection(EMPTY_SELECTION);
    setFocusedId(null);
    setRenamingId(null);
    setMenu(null);
    setDetailsOpen(false);
  }

  const order_ = useMemo(() => items.map((item) => item.id), [items]);
  const selectedItems = useMemo(
    () => (selection.ids.size === 0 ? [] : items.filter((item) => selection.ids.has(item.id))),
    [items, selection],
  );
  const images = useMemo(() => items.filter(isViewableImage), [items]);

  const currentTarget = useCallback(async (): Promise<DropTarget> => {
    const id = await resolveFolderId(queryClient, path);
    const segments = path.split('/').filter(Boolean);
    return { id, path, name: segments[segments.length - 1] ?? t('allFiles') };
  }, [queryClient, path, t]);

  // the uploader puts files into the folder on screen and refreshes it
  useEffect(() => {
    setCurrentFolder({
      path: isHome ? path : '/',
      folderId: isHome ? (path === '/' ? ROOT_FOLDER_ID : (folderId.data ?? '')) : '',
      writable,
    });
  }, [isHome, path, folderId.data, writable]);
  useEffect(() => {
    setCurrentFolderRefresh(() => refreshListing(queryClient, listingKey, true));
  }, [queryClient, listingKey]);
  useEffect(
    () => () => {
      setCurrentFolder({ path: '/', folderId: ROOT_FOLDER_ID, writable: false });
      setCurrentFolderRefresh(null);
    },
    [],
  );

  // ---- highlight (task links: /?path=…&highlight=name) ------------------------------------
  const handledHighlight = useRef<string | null>(null);
  useEffect(() => {
    if (!highlightParam || !query.data) return;
    const token = `${kind}|${path}|${highlightParam}`;
    if (handledHighlight.current === token) return;
    const index = items.findIndex(
      (item) => item.id === highlightParam || item.name === highlightParam,
    );
    if (index >= 0) {
      handledHighlight.current = token;
      const item = items[index]!;
      // the row exists only once its page has arrived: selecting it follows the data
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setSelection({ ids: new Set([item.id]), anchor: item.id });
      setFocusedId(item.id);
      setHighlightId(item.id);
      window.setTimeout(() => collection.current?.scrollToIndex(index, 'center'), 0);
      window.setTimeout(() => setHighlightId((id) => (id === item.id ? null : id)), 4000);
      return;
    }
    if (query.hasNextPage && items.length < 20_000) {
      if (!query.isFetchingNextPage) void query.fetchNextPage();
      return;
    }
    handledHighlight.current = token;
    void message.info(t('messages.notFound', { name: highlightParam }));
  }, [highlightParam, query, items, kind, path, message, t]);

  // ---- helpers ----------------------------------------------------------------------------
  const confirm = useCallback(
    (options: { title: string; content: string; okText: string; danger?: boolean }) =>
      new Promise<boolean>((resolve) => {
        modal.confirm({
          title: options.title,
          content: options.content,
          okText: options.okText,
          cancelText: t('confirm.cancel'),
          okButtonProps: { danger: options.danger, 'data-testid': 'confirm-ok' },
          cancelButtonProps: { 'data-testid': 'confirm-cancel' },
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        });
      }),
    [modal, t],
  );

  /** A toast that follows a bulk operation sent in several requests (a large selection). */
  const bulkProgress = useCallback(
    (kind: 'trash' | 'restore' | 'sweep' | 'move' | 'copy') => {
      const key = `bulk-${kind}-${Date.now()}`;
      return {
        onProgress: (done: number, all: number) => {
          if (all <= BULK_IDS || done >= all) return;
          void message.loading({
            key,
            content: t(`progress.${kind}`, { done: fmt.count(done), total: fmt.count(all) }),
            duration: 0,
          });
        },
        end: () => message.destroy(key),
      };
    },
    [message, t, fmt],
  );

  const removeFromListings = useCallback(
    (match: (item: FileItem) => boolean) =>
      patchListings(queryClient, (data) => {
        const next = removeItems(data, match);
        return next.changed ? next.data : null;
      }),
    [queryClient],
  );

  /** Puts an item into the listings of its folder, where the sort wants it. */
  const insertListed = useCallback(
    (item: FileItem) =>
      patchListings(queryClient, (data, key) => {
        if (key.kind !== 'home' || key.path !== item.path) return null;
        const { data: next, shift } = insertItem(data, item, key.sortProp, key.order, PAGE_SIZE);
        recordShift(key, shift);
        return next;
      }),
    [queryClient],
  );

  const selectOnly = useCallback((item: FileItem) => {
    setSelection({ ids: new Set([item.id]), anchor: item.id });
    setFocusedId(item.id);
  }, []);

  const showNew = useCallback(
    (item: FileItem) => {
      insertListed(item);
      selectOnly(item);
      setHighlightId(item.id);
      window.setTimeout(() => {
        const list = queryClient.getQueryData<{ pages: { items: FileItem[] }[] }>(
          fileKeys.list(listingKey),
        );
        const index = list?.pages.flatMap((p) => p.items).findIndex((i) => i.id === item.id) ?? -1;
        if (index >= 0) collection.current?.scrollToIndex(index, 'center');
      }, 0);
      window.setTimeout(() => setHighlightId((id) => (id === item.id ? null : id)), 2500);
    },
    [queryClient, listingKey, selectOnly, insertListed],
  );

  /** Move or copy, asking before anything of the same name is replaced. */
  const transfer = useCallback(
    async (moving: MoveLike[], target: DropTarget, mode: 'move' | 'copy'): Promise<boolean> => {
      if (moving.length === 0) return false;
      const ids = moving.map((item) => item.id);
      if (
        moving.some(
          (i) =>
            i.isFolder && (i.id === target.id || target.path.startsWith(`${i.path}${i.name}/`)),
        )
      ) {
        void message.warning(t('messages.moveIntoItself'));
        return false;
      }
      if (mode === 'move' && moving.every((i) => i.path === target.path)) {
        void message.info(t('messages.alreadyHere'));
        return false;
      }
      const targetId = target.id.startsWith('path:')
        ? await resolveFolderId(queryClient, target.path)
        : target.id;
      const conflicts = await checkMoveCopy(ids, targetId);
      let override = false;
      if (conflicts.length > 0) {
        const names =
          conflicts
            .slice(0, 5)
            .map((c) => `"${c.name}"`)
            .join(', ') + (conflicts.length > 5 ? '…' : '');
        override = await confirm({
          title: t('confirm.overwriteTitle'),
          content: t('confirm.overwriteBody', {
            count: conflicts.length,
            target: target.name,
            names,
          }),
          okText: t('confirm.overwriteOk'),
          danger: true,
        });
        if (!override) return false;
      }
      const progress = bulkProgress(mode);
      if (mode === 'move') {
        const results = await moveItems(ids, targetId, override, progress.onProgress).finally(
          progress.end,
        );
        const moved = new Set(results.filter((r) => r.code === 0).map((r) => r.from));
        removeFromListings((item) => moved.has(fullPathOf(item)) && item.path !== target.path);
        // a move announces no new files: show the few that arrived where they are looked at
        const arrived = moving.filter((i) => moved.has(`${i.path}${i.name}`));
        if (target.path === path && arrived.length > 0 && arrived.length <= 50) {
          const rows = await Promise.all(arrived.map((i) => fileInfo(i.id).catch(() => null)));
          for (const row of rows) if (row) insertListed(row);
        } else refreshFolder(queryClient, 'home', target.path);
      } else {
        const answer = await copyItems(ids, targetId, override, progress.onProgress).finally(
          progress.end,
        );
        if (!Array.isArray(answer) && answer && 'taskId' in answer) {
          void message.info({ content: t('messages.backgroundCopy'), duration: 4 });
        }
        // copies announce themselves (createFile); a short listing is reloaded to be exact
        if (target.path !== path) refreshFolder(queryClient, 'home', target.path);
        else refreshListing(queryClient, listingKey);
      }
      void queryClient.invalidateQueries({ queryKey: ['files', 'tree'] });
      void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
      return true;
    },
    [
      confirm,
      message,
      queryClient,
      removeFromListings,
      insertListed,
      t,
      path,
      listingKey,
      bulkProgress,
    ],
  );

  const nameDialogFor = useCallback(
    (isFolder: boolean, kindId?: NewFileKind) => {
      const taken = new Set(items.map((item) => item.name));
      const ext = kindId ? NEW_FILE_KINDS.find((k) => k.id === kindId)!.ext : '';
      const kindLabel = kindId ? t(`newFile.kinds.${kindId}`) : '';
      const wanted = isFolder ? t('newFile.defaultFolder') : `${t('newFile.defaultName')}.${ext}`;
      setNameDialog({
        title: isFolder ? t('newFile.folderTitle') : t('newFile.fileTitle', { kind: kindLabel }),
        icon: <FileIcon item={{ name: wanted, suffix: ext, isFolder }} size={22} />,
        initialName: freeName(wanted, taken),
        isFolder,
        okText: t('newFile.create'),
        submit: async (name) => {
          const created = isFolder ? await createFolder(path, name) : await addFile(path, name);
          if (created?.id) {
            if (created.isFolder) rememberFolderId(queryClient, childPathOf(created), created.id);
            showNew(created);
          } else refreshListing(queryClient, listingKey, true);
          void message.success(t('newFile.created', { name }));
        },
      });
    },
    [items, t, path, queryClient, showNew, listingKey, message],
  );

  // ---- commands ---------------------------------------------------------------------------
  const download = useCallback(
    async (targets: FileItem[]) => {
      if (targets.length === 0) return;
      const only = targets[0]!;
      if (targets.length === 1 && !only.isFolder) {
        startDownload(fileUrl(only, true), only.name);
        return;
      }
      const ids = targets.map((item) => item.id);
      if (!(await isPackageDownloadAllowed(ids))) {
        void message.error(t('messages.downloadRefused'));
        return;
      }
      downloadPackage(ids);
    },
    [message, t],
  );

  const cmd: FileCommands = {
    open: (item) => {
      if (isTrash) {
        selectOnly(item);
        setDetailsOpen(true);
        return;
      }
      if (item.mount) {
        // a mount is browsed through its share, in the mount browser
        void navigate(`/mount?share=${encodeURIComponent(item.mount.shareId)}`);
        return;
      }
      switch (openKindOf(item)) {
        case 'folder': {
          const child = childPathOf(item);
          rememberFolderId(queryClient, child, item.id);
          void navigate(linkTo(child));
          return;
        }
        case 'image':
          setImageId(item.id);
          return;
        case 'text':
          setTextItem(item);
          return;
        default:
          void confirm({
            title: t('preview.noneTitle'),
            content: t('preview.noneBody', { name: item.name, size: formatSize(item.size) }),
            okText: t('preview.download'),
          }).then((ok) => ok && void download([item]));
      }
    },
    download: (targets) => void download(targets),
    setFavorite: (targets, favorite) => {
      void setFavorite(
        targets.map((i) => i.id),
        favorite,
      ).then(() => {
        // one pass over each listing, however many items (select all)
        const ids = new Set(targets.map((i) => i.id));
        patchListings(queryClient, (data, key) => {
          if (key.kind === 'favorite' && !favorite) {
            const next = removeItems(data, (i) => ids.has(i.id));
            return next.changed ? next.data : null;
          }
          return mapItems(data, (i) =>
            ids.has(i.id) && i.isFavorite !== favorite ? { ...i, isFavorite: favorite } : i,
          );
        });
        void message.success(t(favorite ? 'messages.favoriteAdded' : 'messages.favoriteRemoved'));
      });
    },
    toggleDetails: (item) => {
      if (detailsOpen) {
        setDetailsOpen(false);
        return;
      }
      if (item && !selection.ids.has(item.id)) selectOnly(item);
      if (item || selectedItems.length) setDetailsOpen(true);
    },
    toClipboard: (targets, mode) => {
      putOnClipboard(targets, mode);
      const first = targets[0];
      void message.success(
        t(mode === 'cut' ? 'messages.cut' : 'messages.copied', {
          count: targets.length,
          name: first?.name ?? '',
        }),
      );
    },
    paste: (as) => {
      if (!writable || clipboard.length === 0) return;
      const mode = as ?? (clipboard[0]?.mode === 'cut' ? 'move' : 'copy');
      void currentTarget()
        .then((target) => transfer(clipboard, target, mode))
        .then((done) => {
          if (done && mode === 'move') removeFromClipboard(clipboard.map((c) => c.id));
        });
    },
    rename: (item) => {
      selectOnly(item);
      setRenamingId(item.id);
      const index = items.indexOf(item);
      if (index >= 0) collection.current?.scrollToIndex(index);
    },
    moveOrCopy: (targets) => {
      void (isHome ? currentTarget() : Promise.resolve(undefined))
        .catch(() => undefined)
        .then((initial) =>
          setMoveRequest({
            items: targets,
            initial,
            modes: { move: can(FILE_AUTHORITY.update), copy: can(FILE_AUTHORITY.upload) },
          }),
        );
    },
    duplicate: (item) => {
      if (item.isFolder) return;
      void duplicateItem(item.id).then((copy) => {
        if (copy?.id) showNew(copy);
        void message.success(t('messages.duplicated', { name: copy?.name ?? '' }));
      });
    },
    extract: (item) => {
      const key = `extract-${item.id}`;
      void message.loading({
        key,
        content: t('messages.extracting', { name: item.name }),
        duration: 0,
      });
      extractArchive(item.id)
        .then((folder) => {
          void message.success({
            key,
            content: t('messages.extracted', { name: folder?.name ?? '' }),
          });
          if (folder?.id && folder.path === path) showNew(folder);
          void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
        })
        .catch(() => message.destroy(key));
    },
    unmount: (item) => {
      const mount = item.mount;
      if (!mount) return;
      void confirm({
        title: t('confirm.unmountTitle'),
        content: t('confirm.unmountBody', {
          name: item.name,
          owner: mount.fileShowName || mount.fileUsername,
        }),
        okText: t('confirm.unmountOk'),
        danger: true,
      }).then(async (ok) => {
        if (!ok) return;
        await removeMount(mount.mountId);
        removeFromListings((i) => i.id === item.id);
        setSelection(EMPTY_SELECTION);
        void queryClient.invalidateQueries({ queryKey: shareKeys.mounts });
        void message.success(t('messages.unmounted', { name: item.name }));
      });
    },
    trash: (targets) => {
      const ids = targets.map((item) => item.id);
      const progress = bulkProgress('trash');
      void trashItems(ids, progress.onProgress)
        .finally(progress.end)
        .then(() => {
          const gone = new Set(ids);
          removeFromListings((item) => gone.has(item.id));
          removeFromClipboard(ids);
          setSelection(EMPTY_SELECTION);
          void queryClient.invalidateQueries({ queryKey: fileKeys.listsOf('trash', '') });
          const key = `trash-${Date.now()}`;
          void message.success({
            key,
            duration: 6,
            content: (
              <span className="nb-undo" data-testid="trash-message">
                {t('messages.trashed', { count: ids.length, name: targets[0]?.name ?? '' })}
                <Button
                  type="link"
                  size="small"
                  data-testid="trash-undo"
                  onClick={() => {
                    message.destroy(key);
                    const undo = bulkProgress('restore');
                    void restoreItems(ids, undo.onProgress)
                      .finally(undo.end)
                      .then(() =>
                        queryClient.invalidateQueries({ queryKey: fileKeys.listsOf('trash', '') }),
                      );
                  }}
                >
                  {t('messages.undo')}
                </Button>
              </span>
            ),
          });
        });
    },
    restore: (targets) => {
      const first = targets[0];
      void confirm({
        title: t('confirm.restoreTitle'),
        content:
          targets.length === 1 && first
            ? t('confirm.restoreOne', { name: first.name, path: first.path })
            : t('confirm.restoreMany', { count: targets.length }),
        okText: t('confirm.restoreOk'),
      }).then(async (ok) => {
        if (!ok) return;
        const progress = bulkProgress('restore');
        const results = await restoreItems(
          targets.map((i) => i.id),
          progress.onProgress,
        ).finally(progress.end);
        const done = new Set(targets.map((i) => i.id));
        removeFromListings((item) => done.has(item.id) && Boolean(item.trashDate));
        setSelection(EMPTY_SELECTION);
        const failed = (results ?? []).filter((r) => r.code !== 0);
        for (const failure of failed) {
          void message.error(t('messages.restoreFailed', { name: failure.from, msg: failure.msg }));
        }
        const restored = targets.length - failed.length;
        if (restored > 0) {
          void message.success(
            t('messages.restored', { count: restored, name: first?.name ?? '' }),
          );
        }
        refreshListing(queryClient, listingKey, true);
      });
    },
    deleteForever: (targets) => {
      const first = targets[0];
      void confirm({
        title: t('confirm.sweepTitle'),
        content:
          targets.length === 1 && first
            ? t('confirm.sweepOne', { name: first.name })
            : t('confirm.sweepMany', { count: targets.length }),
        okText: t('confirm.sweepOk'),
        danger: true,
      }).then(async (ok) => {
        if (!ok) return;
        const ids = targets.map((i) => i.id);
        const progress = bulkProgress('sweep');
        await sweepItems(ids, progress.onProgress).finally(progress.end);
        const gone = new Set(ids);
        removeFromListings((item) => gone.has(item.id));
        setSelection(EMPTY_SELECTION);
        void message.success(t('messages.swept'));
        void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
      });
    },
    emptyTrash: () => {
      void confirm({
        title: t('confirm.emptyTitle'),
        content: t('confirm.emptyBody', { count: total }),
        okText: t('confirm.emptyOk'),
        danger: true,
      }).then(async (ok) => {
        if (!ok) return;
        await clearTrash();
        setSelection(EMPTY_SELECTION);
        void queryClient.invalidateQueries({ queryKey: fileKeys.listsOf('trash', '') });
        void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
        void message.success(t('messages.trashEmptied'));
      });
    },
    deselect: () => {
      cancelSelectAll();
      setSelection(EMPTY_SELECTION);
      setDetailsOpen(false);
    },
    selectAll: () => {
      if (selectAllRun.current) return;
      if (!query.hasNextPage) {
        setSelection({ ids: new Set(order_), anchor: order_[0] ?? null });
        return;
      }
      // every item of the view, like a desktop file manager: the pages not loaded yet first
      const run = new AbortController();
      selectAllRun.current = run;
      setSelectingAll({ loaded: items.length, total });
      loadAllPages(queryClient, listingKey, {
        signal: run.signal,
        onProgress: (loaded, all) => {
          if (!run.signal.aborted) setSelectingAll({ loaded, total: all });
        },
      })
        .then((all) => {
          if (run.signal.aborted) return;
          setSelection({ ids: new Set(all.map((item) => item.id)), anchor: all[0]?.id ?? null });
        })
        .catch(() => undefined)
        .finally(() => {
          if (selectAllRun.current !== run) return;
          selectAllRun.current = null;
          setSelectingAll(null);
        });
    },
    refresh: () => {
      refreshListing(queryClient, listingKey, true);
      void queryClient.invalidateQueries({ queryKey: ['files', 'tree'] });
      void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
    },
    setViewMode: (mode) => update({ vmode: mode }),
    setSort: (prop, value) => update({ sortableProp: prop, order: value }),
    newFolder: () => nameDialogFor(true),
    newFile: (kindId) => nameDialogFor(false, kindId),
  };

  const view: ViewState = { kind, path, writable, vmode, sortProp, order, total };
  const ctx: ActionContext = { items: selectedItems, view, clipboard, cmd, can };
  const run = (action: FileAction, context: ActionContext = ctx) => runAction(action, context);

  // ---- keyboard ---------------------------------------------------------------------------
  const spaceDownAt = useRef<number | null>(null);
  const keyState = useRef({ ctx, run, menu, detailsOpen });
  useLayoutEffect(() => {
    keyState.current = { ctx, run, menu, detailsOpen };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target)) return;
      const { ctx: c, run: go, menu: openMenu, detailsOpen: details } = keyState.current;
      const onControl =
        event.target instanceof Element &&
        Boolean(
          event.target.closest('button, a, [role="menuitem"], [role="tab"], .ant-segmented'),
        ) &&
        !(event.target instanceof Element && event.target.closest('.nb-collection__scroll'));
      if (event.key === 'Escape') {
        if (openMenu) setMenu(null);
        else if (details) setDetailsOpen(false);
        else if (c.items.length || selectAllRun.current) c.cmd.deselect();
        return;
      }
      if ((event.key === ' ' || event.key === 'Enter') && onControl) return;
      if (event.key === ' ') {
        if (c.items.length === 1 || details) {
          event.preventDefault();
          if (event.repeat) return;
          if (!details) spaceDownAt.current = Date.now();
          c.cmd.toggleDetails(c.items[0] ?? null);
        }
        return;
      }
      // Ctrl/⌘+X with nothing selected moves the clipboard here (API-NOTES §3)
      if (
        matchShortcut(event, { key: 'x', mod: true }) &&
        c.items.length === 0 &&
        c.clipboard.length > 0 &&
        c.view.writable &&
        c.can(FILE_AUTHORITY.update)
      ) {
        event.preventDefault();
        c.cmd.paste('move');
        return;
      }
      for (const id of SHORTCUT_ACTIONS) {
        const action: FileAction = ACTIONS[id];
        if (!action.shortcut || !matchShortcut(event, action.shortcut)) continue;
        if (!isEnabled(action, c)) continue;
        event.preventDefault();
        go(action, c);
        return;
      }
    };
    // API-NOTES §3: holding Space more than 0.5 s is a peek; letting go closes the details
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key !== ' ' || spaceDownAt.current === null) return;
      const held = Date.now() - spaceDownAt.current;
      spaceDownAt.current = null;
      if (held > 500) setDetailsOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('keyup', onKeyUp);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('keyup', onKeyUp);
    };
  }, []);

  // ---- collection events ------------------------------------------------------------------
  const dragItems = useDragStore((s) => s.items);

  const handlers: CollectionHandlers = useStable<CollectionHandlers>({
    onItemClick: (item, event) => {
      cancelSelectAll();
      if (renamingId && renamingId !== item.id) setRenamingId(null);
      if (mobile && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
        if (selection.ids.size > 0) {
          setSelection(clickSelection(selection, order_, item.id, { toggle: true, range: false }));
        } else cmd.open(item);
        return;
      }
      const mods = { toggle: event.ctrlKey || event.metaKey, range: event.shiftKey };
      setSelection(clickSelection(selection, order_, item.id, mods));
      setFocusedId(item.id);
    },
    onItemOpen: (item) => {
      if (!mobile) cmd.open(item);
    },
    onItemToggle: (item) => {
      setSelection(clickSelection(selection, order_, item.id, { toggle: true, range: false }));
      setFocusedId(item.id);
    },
    onItemContextMenu: (item, point) => {
      let targets = selectedItems;
      if (!selection.ids.has(item.id)) {
        selectOnly(item);
        targets = [item];
      }
      const context = { ...ctx, items: targets };
      setMenu({ ...point, ctx: context, entries: menuFor(context) });
    },
    onBackgroundClick: () => {
      cmd.deselect();
      setRenamingId(null);
    },
    onBackgroundContextMenu: (point) => {
      setSelection(EMPTY_SELECTION);
      const context = { ...ctx, items: [] };
      setMenu({ ...point, ctx: context, entries: menuFor(context) });
    },
    onMarqueeStart: () => {
      cancelSelectAll();
      marqueeBase.current = selection.ids;
      setRenamingId(null);
    },
    onMarquee: (ids, additive) => {
      const next = new Set(additive ? marqueeBase.current : []);
      for (const id of ids) next.add(id);
      setSelection((current) => ({ ids: next, anchor: current.anchor ?? ids[0] ?? null }));
    },
    onLoadMore: () => {
      if (selectAllRun.current) return;
      if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
    },
    onSort: (prop) => {
      const nextOrder: SortOrder =
        prop === sortProp
          ? order === 'ascending'
            ? 'descending'
            : 'ascending'
          : prop === 'name'
            ? 'ascending'
            : 'descending';
      update({ sortableProp: prop, order: nextOrder });
    },
    onDragStart: (item, event) => {
      let dragged = selectedItems;
      if (!selection.ids.has(item.id)) {
        selectOnly(item);
        dragged = [item];
      }
      // mounts stay where they were placed
      dragged = dragged.filter((i) => !i.mount);
      if (dragged.length === 0) {
        event.preventDefault();
        return;
      }
      event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(dragged.map((i) => i.id)));
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setDragImage(blankDragImage(), 0, 0);
      const store = useDragStore.getState();
      store.start(dragged);
      store.moveTo(event.clientX, event.clientY);
      const end = () => {
        useDragStore.getState().end();
        window.removeEventListener('dragend', end, true);
        window.removeEventListener('drop', end, true);
      };
      window.addEventListener('dragend', end, true);
      window.addEventListener('drop', () => window.setTimeout(end, 0), {
        capture: true,
        once: true,
      });
    },
    canDropOn: (target) => !isTrash && can(FILE_AUTHORITY.update) && canDropInto(dragItems, target),
    onDropOn: (target) => {
      const moving = useDragStore.getState().items;
      useDragStore.getState().end();
      if (!can(FILE_AUTHORITY.update) || !canDropInto(moving, target)) return;
      const first = moving[0]!;
      void confirm({
        title: t('confirm.moveTitle'),
        content:
          moving.length === 1
            ? t('confirm.moveOne', { name: first.name, target: target.name })
            : t('confirm.moveMany', { count: moving.length, target: target.name }),
        okText: t('confirm.moveOk'),
      }).then((ok) => {
        if (ok)
          void transfer(moving, target, 'move').then(
            (done) => done && setSelection(EMPTY_SELECTION),
          );
      });
    },
    onRenameSubmit: async (item, name) => {
      try {
        const renamed = await renameItem(item.id, name);
        const next: FileItem = renamed?.id ? renamed : { ...item, name };
        // the new name may sort elsewhere: take it out and put it back where it belongs
        patchListings(queryClient, (data, key) => {
          if (key.kind !== 'home' || key.sortProp !== 'name')
            return updateItem(data, item.id, next);
          const without = removeItems(data, (i) => i.id === item.id);
          if (!without.changed) return null;
          const placed = insertItem(without.data, next, key.sortProp, key.order, PAGE_SIZE);
          recordShift(key, without.shift + placed.shift);
          return placed.data;
        });
        setRenamingId(null);
        collection.current?.focus();
        return null;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    onRenameCancel: () => {
      setRenamingId(null);
      collection.current?.focus();
    },
    onKeyDown: (event, columns) => {
      if (isTypingTarget(event.target)) return;
      const steps: Record<string, number> = {
        ArrowDown: columns,
        ArrowUp: -columns,
        ArrowRight: columns > 1 ? 1 : 0,
        ArrowLeft: columns > 1 ? -1 : 0,
        Home: -Infinity,
        End: Infinity,
      };
      const step = steps[event.key];
      if (step === undefined || step === 0) return;
      event.preventDefault();
      const from = focusedId ?? selection.anchor;
      const bounded = Number.isFinite(step) ? step : step > 0 ? order_.length : -order_.length;
      const next = stepSelection(order_, from, bounded);
      if (!next) return;
      if (event.shiftKey) {
        setSelection(clickSelection(selection, order_, next, { toggle: false, range: true }));
      } else setSelection({ ids: new Set([next]), anchor: next });
      setFocusedId(next);
      collection.current?.scrollToIndex(order_.indexOf(next));
    },
  });

  // ---- rendering --------------------------------------------------------------------------
  const title = kind === 'tag' && tag ? tag.name : t(`views.${config.title}`);
  const titleNode = (
    <Breadcrumb
      data-testid="files-breadcrumb"
      items={[
        ...(kind === 'tag' && tag
          ? [{ key: 'tags', title: <Link to="/tag">{t('views.tags')}</Link> }]
          : []),
        {
          key: 'view',
          title: (
            <span className="nb-view-title">
              {config.icon} {title}
            </span>
          ),
        },
      ]}
    />
  );

  const loadedAll = !query.hasNextPage;
  const shownTotal = loadedAll ? items.length : total;
  const emptyKey = kind === 'tag' && !tagId ? 'tagsNone' : kind;

  let body: React.ReactNode;
  if (folderMissing) {
    body = (
      <Result
        status="404"
        title={t('messages.folderMissing')}
        subTitle={t('messages.folderMissingHint')}
        data-testid="files-missing"
        extra={
          <Link to={linkTo('/')}>
            <Button type="primary">{t('messages.goHome')}</Button>
          </Link>
        }
      />
    );
  } else if (listable && query.isPending) {
    body = (
      <div className="nb-files__center" data-testid="files-loading">
        <Spin size="large" />
      </div>
    );
  } else if (listable && query.isError && !query.data) {
    body = (
      <Result
        status="warning"
        title={t('messages.loadFailed')}
        subTitle={query.error instanceof Error ? query.error.message : undefined}
        data-testid="files-error"
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            {t('messages.retry')}
          </Button>
        }
      />
    );
  } else if (items.length === 0) {
    body = (
      <div
        className="nb-files__center"
        onContextMenu={(event) => {
          if (!listable) return;
          event.preventDefault();
          handlers.onBackgroundContextMenu({ x: event.clientX, y: event.clientY });
        }}
      >
        <EmptyState
          icon={config.icon}
          title={t(`empty.${emptyKey}.title`)}
          description={
            <>
              {t(`empty.${emptyKey}.description`)}
              {writable ? <div className="nb-files__hint">{t('empty.dropHint')}</div> : null}
            </>
          }
          testId="files-empty"
        />
      </div>
    );
  } else {
    body = (
      <FileCollection
        apiRef={collection}
        items={items}
        mode={vmode}
        mobile={mobile}
        selected={selection.ids}
        focusedId={focusedId}
        highlightId={highlightId}
        renamingId={renamingId}
        hasMore={Boolean(query.hasNextPage)}
        loadingMore={query.isFetchingNextPage}
        showLocation={flat}
        trash={isTrash}
        sortProp={sortProp}
        order={order}
        draggable={!isTrash && can(FILE_AUTHORITY.update)}
        handlers={handlers}
        label={t('a11y.list')}
        locationLink={locationLink}
      />
    );
  }

  const selectedSize = sumSizes(selectedItems);
  const detailsItems = detailsOpen ? selectedItems : [];

  return (
    <section
      className="nb-files nb-fb"
      data-testid="files-view"
      data-kind={kind}
      data-vmode={vmode}
      data-path={isHome ? path : undefined}
      aria-label={title}
    >
      <FilesToolbar
        ctx={ctx}
        title={titleNode}
        folderPath={isHome ? path : null}
        parentLink={isHome && path !== '/' ? linkTo(parentFolderPath(path)) : null}
        linkTo={(p) => linkTo(p)}
        mobile={mobile}
        handlers={handlers}
        run={(action) => run(action)}
      />
      <div className="nb-fb__body">{body}</div>
      <ClipboardTray
        canPaste={writable && can(pasteAuthority(clipboard))}
        onPaste={() => cmd.paste()}
      />
      {listable && query.data ? (
        <div className="nb-fb__status" data-testid="files-status" aria-live="polite">
          <span>
            {loadedAll
              ? `${t('status.allLoaded')} · ${t('status.items', { count: shownTotal, formatted: fmt.count(shownTotal) })}`
              : t('status.loaded', { loaded: fmt.count(items.length), total: fmt.count(total) })}
            {' · '}
            {formatSize(sumSizes(items))}
          </span>
          {selectingAll ? (
            <span data-testid="files-status-selecting" aria-busy="true">
              <Spin size="small" />{' '}
              {t('status.selecting', {
                loaded: fmt.count(selectingAll.loaded),
                total: fmt.count(selectingAll.total),
              })}
            </span>
          ) : selectedItems.length ? (
            <span data-testid="files-status-selection">
              {t('status.selected', {
                count: selectedItems.length,
                formatted: fmt.count(selectedItems.length),
              })}{' '}
              · {formatSize(selectedSize)}
            </span>
          ) : null}
        </div>
      ) : null}
      <ContextMenu
        key={menu ? `${menu.x}:${menu.y}` : 'none'}
        request={menu}
        onClose={() => setMenu(null)}
      />
      <NameDialog request={nameDialog} onClose={() => setNameDialog(null)} />
      <MoveCopyDialog
        request={moveRequest}
        onClose={() => setMoveRequest(null)}
        onSubmit={(moving, target, mode) =>
          transfer(moving, target, mode).then((done) => {
            if (done) setSelection(EMPTY_SELECTION);
            return done;
          })
        }
      />
      <DetailsDrawer
        open={detailsOpen && detailsItems.length > 0}
        items={detailsItems}
        mobile={mobile}
        onClose={() => setDetailsOpen(false)}
        locationLink={(folder, name) => linkTo(folder, name)}
      />
      <ImageViewer images={images} current={imageId} onChange={setImageId} />
      <TextPreviewDialog
        item={textItem}
        onClose={() => setTextItem(null)}
        onDownload={(item) => void download([item])}
        mobile={mobile}
      />
      <DragChip />
    </section>
  );
}
