import type { PublicFileView, ShareFacts } from '@nimbus/contract';
import { App } from 'antd';
import { useMemo, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { startDownload } from '../../../api/bytes';
import type { NameDialogRequest } from '../../../components/file-browser/NameDialog';
import { thumbnailUrl } from '../../../actions/thumbnails';
import { useFilePreview } from '../../../actions/viewers';
import { ownerSource, shareSource } from '../../../actions/preview-sources';
import type { PickedFile } from '../../upload/types';
import {
  deleteShared,
  newSharedFolder,
  renameShared,
  sharedDownloadUrl,
  sharedPreviewUrl,
  sharedZipUrl,
} from '../api';
import {
  sharePermissionCheck,
  type ShareBrowserCommands,
  type ShareBrowserContext,
} from '../browser-actions';
import { useShareUploads } from '../share-uploads';
import type { ShareListing } from './use-share-listing';
import type { ShareSelection } from './use-share-selection';

/** `/a/b` → ['a', 'b'] */
export const segmentsOf = (path: string) => path.split('/').filter(Boolean);
export const pathOf = (segments: string[]) => (segments.length ? `/${segments.join('/')}` : '/');

interface CommandsInput {
  share: string;
  facts: ShareFacts;
  /** The folder on screen: '/' or '/a/b'. */
  path: string;
  onNavigate: (path: string) => void;
  bytesUrl?: (item: PublicFileView, download: boolean) => string;
  listing: ShareListing;
  selection: ShareSelection;
}

/**
 * The work behind the share browser's actions (browser-actions.tsx): opening, previews,
 * downloads and zips, and the changes and uploads the share allows; and the dialogs they open.
 */
export function useShareCommands({
  share,
  facts,
  path,
  onNavigate,
  bytesUrl,
  listing,
  selection,
}: CommandsInput) {
  const { t } = useTranslation(['share', 'common']);
  const { message, modal } = App.useApp();
  const preview = useFilePreview();
  const [naming, setNaming] = useState<NameDialogRequest | null>(null);
  // the pickers' elements, which the upload actions click
  const [fileInput, setFileInput] = useState<HTMLInputElement | null>(null);
  const [folderInput, setFolderInput] = useState<HTMLInputElement | null>(null);
  const shareId = facts.shareId;
  const folder = pathOf(segmentsOf(path));
  const uploads = useShareUploads(shareId, share);
  const can = useMemo(() => sharePermissionCheck(facts), [facts]);
  const canDownload = facts.allowDownload !== false;

  const urls = useMemo(
    () => ({
      preview: (item: PublicFileView) =>
        bytesUrl ? bytesUrl(item, false) : sharedPreviewUrl(shareId, item),
      // a mounter reads thumbnails by id with their own session; a visitor through the share
      thumbnail: (item: PublicFileView) =>
        thumbnailUrl(item, bytesUrl ? undefined : shareSource(shareId, canDownload).api),
      download: (item: PublicFileView) =>
        bytesUrl ? bytesUrl(item, true) : sharedDownloadUrl(shareId, item),
    }),
    [bytesUrl, shareId, canDownload],
  );

  // a mounter opens files by id with their own session; a visitor through the share
  const source = useMemo(
    () => (bytesUrl ? ownerSource(canDownload) : shareSource(shareId, canDownload)),
    [bytesUrl, shareId, canDownload],
  );

  const refuseDownload = () => {
    if (canDownload) return false;
    void message.warning(t('page.noDownload'));
    return true;
  };

  const download = (item: PublicFileView) => {
    if (refuseDownload()) return;
    if (item.isFolder) startDownload(sharedZipUrl(shareId, [item.id]), `${item.name}.zip`);
    else startDownload(urls.download(item), item.name);
  };

  const open = (item: PublicFileView) => {
    // by the item's own place: a click on the last folder's items while the next one loads
    if (item.isFolder) onNavigate(pathOf([...segmentsOf(item.path), item.name]));
    else preview.open(item, listing.items, source);
  };

  const askName = (
    title: string,
    initialName: string,
    isFolder: boolean,
    submit: (name: string) => Promise<unknown>,
  ) =>
    setNaming({
      title,
      initialName,
      isFolder,
      okText: t('common:actions.ok'),
      submit: async (name) => {
        await submit(name.trim());
        await listing.refresh();
      },
    });

  const remove = (ids: string[]) => {
    modal.confirm({
      title: t('page.deleteConfirm', { count: ids.length }),
      okText: t('page.delete'),
      okButtonProps: { danger: true, 'data-testid': 'share-delete-confirm' },
      cancelText: t('common:actions.cancel'),
      onOk: async () => {
        await deleteShared(shareId, ids);
        selection.clear();
        void message.success(t('page.deleted'));
        await listing.refresh();
      },
    });
  };

  const cmd: ShareBrowserCommands = {
    open,
    download,
    zip: (chosen) => {
      if (refuseDownload()) return;
      startDownload(
        sharedZipUrl(
          shareId,
          chosen.map((item) => item.id),
        ),
        'download.zip',
      );
    },
    rename: (item) =>
      askName(t('page.rename'), item.name, item.isFolder, (name) =>
        renameShared(shareId, item.id, name),
      ),
    remove: (chosen) => remove(chosen.map((item) => item.id)),
    newFolder: () =>
      askName(t('page.newFolder'), '', true, (name) => newSharedFolder(shareId, folder, name)),
    uploadFiles: () => fileInput?.click(),
    uploadFolder: () => folderInput?.click(),
  };

  const contextOf = (items: PublicFileView[]): ShareBrowserContext => ({ can, items, cmd });

  const picked = (asFolder: boolean) => (event: ChangeEvent<HTMLInputElement>) => {
    const files: PickedFile[] = Array.from(event.target.files ?? []).map((file) => ({
      file,
      relativePath: asFolder && file.webkitRelativePath ? file.webkitRelativePath : file.name,
    }));
    event.target.value = '';
    void uploads.upload(files, folder);
  };

  return {
    cmd,
    contextOf,
    canDownload,
    urls,
    uploads,
    /** The hidden pickers the upload actions click. */
    pickers: {
      setFileInput,
      setFolderInput,
      onFilesPicked: picked(false),
      onFolderPicked: picked(true),
    },
    /** The viewer of the file opened, the same as the drive's (the viewer registry). */
    preview,
    naming: { request: naming, close: () => setNaming(null) },
  };
}

export type ShareCommands = ReturnType<typeof useShareCommands>;
