import { useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { useCallback, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FILE_AUTHORITY } from '../../../actions/authorities';
import type { Authority } from '../../../actions/types';
import { formatSize } from '../../../lib/format';
import { authKeys } from '../../auth/api';
import { NEW_FILE_KINDS, type FileCommands, type NewFileKind } from '../actions';
import {
  BULK_IDS,
  checkMoveCopy,
  downloadPackage,
  fileInfo,
  fileKeys,
  fileUrl,
  isPackageDownloadAllowed,
  rememberFolderId,
  resolveFolderId,
  startDownload,
  useClearTrash,
  useCopyItems,
  useCreateItem,
  useDuplicateItem,
  useExtractArchive,
  useMoveItems,
  useRestoreItems,
  useSetFavorite,
  useSweepItems,
  useTrashItems,
  useUnmount,
} from '../api';
import { putOnClipboard, removeFromClipboard, type ClipboardEntry } from '../clipboard';
import type { CollectionApi } from '../components/collection-types';
import { FileIcon } from '../components/FileIcon';
import type { DropTarget } from '../drag';
import { openKindOf } from '../file-kinds';
import { insertListed, refreshFolder, refreshListing } from '../listing-cache';
import { freeName } from '../names';
import { childPathOf, type FileItem } from '../types';
import { useFileFormat } from '../use-format';
import type { FileDialogs } from './use-file-dialogs';
import type { FileSelection, Listing } from './use-file-selection';
import type { ViewUrl } from './use-view-url';

/** What a move or copy needs of an item (the clipboard holds no more). */
export interface MoveLike {
  id: string;
  name: string;
  path: string;
  isFolder: boolean;
}

interface CommandsInput {
  view: ViewUrl;
  writable: boolean;
  can: (authority: Authority) => boolean;
  listing: Listing;
  selection: FileSelection;
  dialogs: FileDialogs;
  clipboard: ClipboardEntry[];
  collection: RefObject<CollectionApi | null>;
}

/**
 * The work behind the file browser's actions (FileCommands): the server's answers through the
 * feature's mutations, and the toasts, confirmations and selection around them.
 */
export function useFileCommands({
  view,
  writable,
  can,
  listing,
  selection: sel,
  dialogs,
  clipboard,
  collection,
}: CommandsInput) {
  const { t } = useTranslation('files');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const fmt = useFileFormat();
  const { path, listingKey, isHome, linkTo } = view;
  const { items, total } = listing;
  const { confirm } = dialogs;
  const isTrash = view.kind === 'trash';

  const createItem = useCreateItem();
  const moveItems = useMoveItems();
  const copyItems = useCopyItems();
  const trashItems = useTrashItems();
  const restoreItems = useRestoreItems();
  const sweepItems = useSweepItems();
  const clearTrash = useClearTrash();
  const setFavorite = useSetFavorite();
  const duplicateItem = useDuplicateItem();
  const extractArchive = useExtractArchive();
  const unmount = useUnmount();

  const currentTarget = useCallback(async (): Promise<DropTarget> => {
    const id = await resolveFolderId(queryClient, path);
    const segments = path.split('/').filter(Boolean);
    return { id, path, name: segments[segments.length - 1] ?? t('allFiles') };
  }, [queryClient, path, t]);

  /** A toast that follows a bulk operation sent in several requests (a large selection). */
  const bulkProgress = (kind: 'trash' | 'restore' | 'sweep' | 'move' | 'copy') => {
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
  };

  /** Selects, scrolls to and highlights an item that just arrived in the listing. */
  const showNew = (item: FileItem) => {
    sel.selectOnly(item);
    sel.flash(item.id, 2500);
    window.setTimeout(() => {
      const list = queryClient.getQueryData<{ pages: { items: FileItem[] }[] }>(
        fileKeys.list(listingKey),
      );
      const index = list?.pages.flatMap((p) => p.items).findIndex((i) => i.id === item.id) ?? -1;
      if (index >= 0) collection.current?.scrollToIndex(index, 'center');
    }, 0);
  };

  /** Move or copy, asking before anything of the same name is replaced. */
  const transfer = async (
    moving: MoveLike[],
    target: DropTarget,
    mode: 'move' | 'copy',
  ): Promise<boolean> => {
    if (moving.length === 0) return false;
    const ids = moving.map((item) => item.id);
    if (
      moving.some(
        (i) => i.isFolder && (i.id === target.id || target.path.startsWith(`${i.path}${i.name}/`)),
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
    const input = {
      ids,
      targetId,
      targetPath: target.path,
      override,
      onProgress: progress.onProgress,
    };
    if (mode === 'move') {
      const results = await moveItems.mutateAsync(input).finally(progress.end);
      const moved = new Set(results.filter((r) => r.code === 0).map((r) => r.from));
      // a move announces no new files: show the few that arrived where they are looked at
      const arrived = moving.filter((i) => moved.has(`${i.path}${i.name}`));
      if (target.path === path && arrived.length > 0 && arrived.length <= 50) {
        const rows = await Promise.all(arrived.map((i) => fileInfo(i.id).catch(() => null)));
        for (const row of rows) if (row) insertListed(queryClient, row);
      } else refreshFolder(queryClient, 'home', target.path);
    } else {
      const answer = await copyItems.mutateAsync(input).finally(progress.end);
      if (!Array.isArray(answer) && answer && 'taskId' in answer) {
        void message.info({ content: t('messages.backgroundCopy'), duration: 4 });
      }
      // copies announce themselves (createFile); a short listing is reloaded to be exact
      if (target.path !== path) refreshFolder(queryClient, 'home', target.path);
      else refreshListing(queryClient, listingKey);
    }
    return true;
  };

  const nameDialogFor = (isFolder: boolean, kindId?: NewFileKind) => {
    const taken = new Set(items.map((item) => item.name));
    const ext = kindId ? NEW_FILE_KINDS.find((k) => k.id === kindId)!.ext : '';
    const kindLabel = kindId ? t(`newFile.kinds.${kindId}`) : '';
    const wanted = isFolder ? t('newFile.defaultFolder') : `${t('newFile.defaultName')}.${ext}`;
    dialogs.setNameDialog({
      title: isFolder ? t('newFile.folderTitle') : t('newFile.fileTitle', { kind: kindLabel }),
      icon: <FileIcon item={{ name: wanted, suffix: ext, isFolder }} size={22} />,
      initialName: freeName(wanted, taken),
      isFolder,
      okText: t('newFile.create'),
      submit: async (name) => {
        const created = await createItem.mutateAsync({ path, name, isFolder });
        if (created?.id) showNew(created);
        else refreshListing(queryClient, listingKey, true);
        void message.success(t('newFile.created', { name }));
      },
    });
  };

  const download = async (targets: FileItem[]) => {
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
  };

  const restoreWithProgress = (ids: string[]) => {
    const progress = bulkProgress('restore');
    return restoreItems.mutateAsync({ ids, onProgress: progress.onProgress }).finally(progress.end);
  };

  const cmd: FileCommands = {
    open: (item) => {
      if (isTrash) {
        sel.selectOnly(item);
        dialogs.setDetailsOpen(true);
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
          dialogs.setImageId(item.id);
          return;
        case 'text':
          dialogs.setTextItem(item);
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
      void setFavorite.mutateAsync({ ids: targets.map((i) => i.id), favorite }).then(() => {
        void message.success(t(favorite ? 'messages.favoriteAdded' : 'messages.favoriteRemoved'));
      });
    },
    toggleDetails: (item) => {
      if (dialogs.detailsOpen) {
        dialogs.setDetailsOpen(false);
        return;
      }
      if (item && !sel.selection.ids.has(item.id)) sel.selectOnly(item);
      if (item || sel.selectedItems.length) dialogs.setDetailsOpen(true);
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
      sel.selectOnly(item);
      sel.setRenamingId(item.id);
      const index = items.indexOf(item);
      if (index >= 0) collection.current?.scrollToIndex(index);
    },
    moveOrCopy: (targets) => {
      void (isHome ? currentTarget() : Promise.resolve(undefined))
        .catch(() => undefined)
        .then((initial) =>
          dialogs.setMoveRequest({
            items: targets,
            initial,
            modes: { move: can(FILE_AUTHORITY.update), copy: can(FILE_AUTHORITY.upload) },
          }),
        );
    },
    duplicate: (item) => {
      if (item.isFolder) return;
      void duplicateItem.mutateAsync(item.id).then((copy) => {
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
      extractArchive
        .mutateAsync(item.id)
        .then((folder) => {
          void message.success({
            key,
            content: t('messages.extracted', { name: folder?.name ?? '' }),
          });
          if (folder?.id && folder.path === path) showNew(folder);
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
        await unmount.mutateAsync(item);
        sel.clear();
        void message.success(t('messages.unmounted', { name: item.name }));
      });
    },
    trash: (targets) => {
      const ids = targets.map((item) => item.id);
      const progress = bulkProgress('trash');
      void trashItems
        .mutateAsync({ ids, onProgress: progress.onProgress })
        .finally(progress.end)
        .then(() => {
          sel.clear();
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
                    void restoreWithProgress(ids).then(() =>
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
        const results = await restoreWithProgress(targets.map((i) => i.id));
        sel.clear();
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
        const progress = bulkProgress('sweep');
        await sweepItems
          .mutateAsync({ ids: targets.map((i) => i.id), onProgress: progress.onProgress })
          .finally(progress.end);
        sel.clear();
        void message.success(t('messages.swept'));
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
        await clearTrash.mutateAsync();
        sel.clear();
        void message.success(t('messages.trashEmptied'));
      });
    },
    deselect: () => {
      sel.cancelSelectAll();
      sel.clear();
      dialogs.setDetailsOpen(false);
    },
    selectAll: () => sel.selectAll(),
    refresh: () => {
      refreshListing(queryClient, listingKey, true);
      void queryClient.invalidateQueries({ queryKey: ['files', 'tree'] });
      void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
    },
    setViewMode: (mode) => view.update({ vmode: mode }),
    setSort: (prop, value) => view.update({ sortableProp: prop, order: value }),
    newFolder: () => nameDialogFor(true),
    newFile: (kindId) => nameDialogFor(false, kindId),
  };

  return { cmd, transfer, download };
}
