import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FILE_AUTHORITY } from '../../../actions/authorities';
import type { Authority } from '../../../actions/types';
import { authKeys } from '../../../api/account';
import { ownerSource } from '../../../actions/preview-sources';
import { NEW_FILE_KINDS, type FileCommands, type NewFileKind } from '../actions';
import {
  downloadPackage,
  fileKeys,
  fileUrl,
  isPackageDownloadAllowed,
  rememberFolderId,
  startDownload,
  useCreateItem,
  useDuplicateItem,
  useExtractArchive,
  useSetFavorite,
  useUnmount,
} from '../api';
import { putOnClipboard, removeFromClipboard, type ClipboardEntry } from '../clipboard';
import type { CollectionApi } from '../../../components/file-browser/collection-types';
import { FileIcon } from '../../../components/FileIcon';
import { refreshListing } from '../listing-cache';
import { freeName } from '../../../components/file-browser/names';
import { childPathOf, type FileItem } from '../types';
import type { FileDialogs } from './use-file-dialogs';
import type { FileSelection, Listing } from './use-file-selection';
import { useTransfer } from './use-transfer';
import { useTrashCommands } from './use-trash-commands';
import type { ViewUrl } from './use-view-url';

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
  const { path, listingKey, isHome, linkTo } = view;
  const { items, total } = listing;
  const { confirm } = dialogs;
  const isTrash = view.kind === 'trash';

  const { transfer, currentTarget } = useTransfer(path, listingKey, confirm);
  const trashCommands = useTrashCommands(listingKey, total, sel, confirm);
  const createItem = useCreateItem();
  const setFavorite = useSetFavorite();
  const duplicateItem = useDuplicateItem();
  const extractArchive = useExtractArchive();
  const unmount = useUnmount();

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

  const cmd: FileCommands = {
    ...trashCommands,
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
      if (item.isFolder) {
        const child = childPathOf(item);
        rememberFolderId(queryClient, child, item.id);
        void navigate(linkTo(child));
        return;
      }
      dialogs.preview.open(item, items, ownerSource(can(FILE_AUTHORITY.download)));
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
