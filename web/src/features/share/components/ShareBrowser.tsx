import { AppstoreOutlined, FolderOpenOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { PublicFileView, ShareFacts } from '@nimbus/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Breadcrumb,
  Button,
  Checkbox,
  Dropdown,
  Empty,
  Image,
  Pagination,
  Segmented,
  Space,
  Table,
  Tooltip,
  type TableColumnsType,
} from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../../lib/format';
import { actionIcon, runAction, visibleChildren } from '../../../actions/registry';
import { SHARE_MENUS, visibleShareActions } from '../../../app/action-registry';
import { startDownload } from '../../files/api';
import { FileIcon } from '../../files/components/FileIcon';
import { NameDialog, type NameDialogRequest } from '../../files/components/NameDialog';
import { isTextLike, isViewableImage } from '../../files/file-kinds';
import {
  deleteShared,
  newSharedFolder,
  renameShared,
  SHARE_PAGE_SIZE,
  shareFolderQuery,
  shareKeys,
  sharedDownloadUrl,
  sharedPreviewUrl,
  sharedThumbnailUrl,
  sharedZipUrl,
} from '../api';
import type { PickedFile } from '../../upload/types';
import {
  sharePermissionCheck,
  type ShareBrowserCommands,
  type ShareBrowserContext,
} from '../browser-actions';
import { useShareUploads } from '../share-uploads';
import { ShareTextPreview } from './ShareTextPreview';
import { ShareUploadList } from './ShareUploadList';

const PAGE_SIZE = SHARE_PAGE_SIZE;

/** `/a/b` → ['a', 'b'] */
const segmentsOf = (path: string) => path.split('/').filter(Boolean);
const pathOf = (segments: string[]) => (segments.length ? `/${segments.join('/')}` : '/');

export interface ShareBrowserProps {
  /** The share's address or id. */
  share: string;
  facts: ShareFacts;
  /** The folder on screen, relative to the shared folder: '/' or '/a/b'. */
  path: string;
  onNavigate: (path: string) => void;
  mobile: boolean;
  /** Extra buttons at the end of the toolbar (Mount). */
  extra?: ReactNode;
  /**
   * Where a file's bytes are: the public share URLs by default; a mounter opens the owner's
   * files through /pre-file (spec §6).
   */
  bytesUrl?: (item: PublicFileView, download: boolean) => string;
  /** The name the first crumb shows (a mount's own name); the shared folder's by default. */
  rootLabel?: string;
}

/**
 * The content of a share as a visitor (or a mounter) sees it: folders to open, text and image
 * previews, downloads and zips, and uploads and changes where the share allows them.
 */
export function ShareBrowser({
  share,
  facts,
  path,
  onNavigate,
  mobile,
  extra,
  bytesUrl,
  rootLabel,
}: ShareBrowserProps) {
  const { t } = useTranslation(['share', 'common']);
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [vmode, setVmode] = useState<'list' | 'grid'>(mobile ? 'grid' : 'list');
  // the selection may span pages: the items are kept with their ids for the toolbar to act on
  const [picked, setPicked] = useState<ReadonlyMap<string, PublicFileView>>(new Map());
  const selected = useMemo(() => [...picked.keys()], [picked]);
  const [textItem, setTextItem] = useState<PublicFileView | null>(null);
  const [imageId, setImageId] = useState<string | null>(null);
  const [naming, setNaming] = useState<NameDialogRequest | null>(null);
  // the pickers' elements, which the upload actions click
  const [fileInput, setFileInput] = useState<HTMLInputElement | null>(null);
  const [folderInput, setFolderInput] = useState<HTMLInputElement | null>(null);
  const segments = segmentsOf(path);
  const shareId = facts.shareId;
  const uploads = useShareUploads(shareId, share);
  const can = useMemo(() => sharePermissionCheck(facts), [facts]);
  const canDownload = facts.allowDownload !== false;
  const previewUrl = (item: PublicFileView) =>
    bytesUrl ? bytesUrl(item, false) : sharedPreviewUrl(shareId, item);
  const thumbnailUrl = (item: PublicFileView) =>
    bytesUrl ? bytesUrl(item, false) : sharedThumbnailUrl(shareId, item);
  const downloadUrl = (item: PublicFileView) =>
    bytesUrl ? bytesUrl(item, true) : sharedDownloadUrl(shareId, item);

  const listing = useQuery({
    ...shareFolderQuery(share, pathOf(segments), page),
    placeholderData: keepPreviousData,
  });
  const items = useMemo(() => listing.data?.items ?? [], [listing.data]);
  const images = useMemo(() => items.filter((item) => isViewableImage(item)), [items]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: shareKeys.visit(share) });

  const go = (next: string) => {
    setPage(1);
    setSelected([]);
    onNavigate(next);
  };

  const download = (item: PublicFileView) => {
    if (!canDownload) {
      void message.warning(t('page.noDownload'));
      return;
    }
    if (item.isFolder) startDownload(sharedZipUrl(shareId, [item.id]), `${item.name}.zip`);
    else startDownload(downloadUrl(item), item.name);
  };

  const open = (item: PublicFileView) => {
    if (item.isFolder) go(pathOf([...segments, item.name]));
    else if (isViewableImage(item)) setImageId(item.id);
    else if (isTextLike(item)) setTextItem(item);
    else if (canDownload) download(item);
    else void message.info(t('page.cannotPreview'));
  };

  const zip = (ids: string[]) => {
    if (!canDownload) {
      void message.warning(t('page.noDownload'));
      return;
    }
    startDownload(sharedZipUrl(shareId, ids), 'download.zip');
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
        await refresh();
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
        setSelected([]);
        void message.success(t('page.deleted'));
        await refresh();
      },
    });
  };

  const cmd: ShareBrowserCommands = {
    open,
    download,
    zip: (chosen) => zip(chosen.map((item) => item.id)),
    rename: (item) =>
      askName(t('page.rename'), item.name, item.isFolder, (name) =>
        renameShared(shareId, item.id, name),
      ),
    remove: (chosen) => remove(chosen.map((item) => item.id)),
    newFolder: () =>
      askName(t('page.newFolder'), '', true, (name) =>
        newSharedFolder(shareId, pathOf(segments), name),
      ),
    uploadFiles: () => fileInput?.click(),
    uploadFolder: () => folderInput?.click(),
  };
  const contextOf = (acted: PublicFileView[]): ShareBrowserContext => ({ can, items: acted, cmd });
  const selectedItems = [...picked.values()];
  /** Select exactly these ids: items of this page, or kept from the pages before. */
  const setSelected = (ids: string[]) =>
    setPicked((current) => {
      const next = new Map<string, PublicFileView>();
      for (const id of ids) {
        const item = current.get(id) ?? items.find((i) => i.id === id);
        if (item) next.set(id, item);
      }
      return next;
    });
  const selectionCtx = contextOf(selectedItems);
  const folderCtx = contextOf([]);
  const folderActions = visibleShareActions(SHARE_MENUS.folder, folderCtx);
  const canUpload = folderActions.some((action) => action.id === 'upload');
  const uploadAction = folderActions.find((action) => action.id === 'upload');
  const newFolderAction = folderActions.find((action) => action.id === 'newFolder');

  const onPicked = (files: FileList | null, folder: boolean) => {
    const picked: PickedFile[] = Array.from(files ?? []).map((file) => ({
      file,
      relativePath: folder && file.webkitRelativePath ? file.webkitRelativePath : file.name,
    }));
    void uploads.upload(picked, pathOf(segments));
  };

  const columns: TableColumnsType<PublicFileView> = [
    {
      title: t('list.name'),
      dataIndex: 'name',
      render: (_, item) => (
        <button
          type="button"
          className="nb-share-name"
          onClick={() => open(item)}
          data-testid={`share-item-${item.name}`}
        >
          <FileIcon item={item} size={24} />
          <span className="nb-share-name__text">{item.name}</span>
        </button>
      ),
    },
    {
      title: t('page.size'),
      dataIndex: 'size',
      width: 110,
      responsive: ['sm'],
      render: (_, item) => (item.isFolder ? '—' : formatSize(item.size)),
    },
    {
      title: t('page.modified'),
      dataIndex: 'updateDate',
      width: 170,
      responsive: ['md'],
      render: (value: string) => value.slice(0, 16),
    },
    {
      title: t('list.actions'),
      key: 'actions',
      width: 140,
      align: 'right',
      render: (_, item) => {
        const ctx = contextOf([item]);
        return (
          <Space size={0}>
            {visibleShareActions(SHARE_MENUS.item, ctx).map((action) => (
              <Tooltip key={action.id} title={action.label(t, ctx)}>
                <Button
                  type="text"
                  size="small"
                  danger={action.danger}
                  icon={actionIcon(action, ctx)}
                  onClick={() => runAction(action, ctx)}
                  aria-label={action.label(t, ctx)}
                  data-testid={action.id === 'download' ? `share-download-${item.name}` : undefined}
                />
              </Tooltip>
            ))}
          </Space>
        );
      },
    },
  ];

  const toggle = (id: string, on: boolean) =>
    setSelected(on ? [...new Set([...selected, id])] : selected.filter((x) => x !== id));

  const crumbs = [
    {
      title: (
        <a onClick={() => go('/')} data-testid="share-crumb-root">
          <FolderOpenOutlined /> {rootLabel ?? facts.fileName}
        </a>
      ),
    },
    ...segments.map((name, i) => ({
      title:
        i === segments.length - 1 ? (
          <span>{name}</span>
        ) : (
          <a onClick={() => go(pathOf(segments.slice(0, i + 1)))}>{name}</a>
        ),
    })),
  ];

  return (
    <div className="nb-share-browser" data-testid="share-browser" data-path={pathOf(segments)}>
      <div className="nb-share-browser__toolbar">
        <Breadcrumb
          items={crumbs}
          className="nb-share-browser__crumbs"
          data-testid="share-breadcrumb"
        />
        <Space wrap size={8}>
          {selected.length > 0 ? (
            <span className="nb-share-browser__count">
              {t('page.selected', { count: selected.length })}
            </span>
          ) : null}
          {selected.length > 0
            ? visibleShareActions(SHARE_MENUS.selection, selectionCtx).map((action) => (
                <Button
                  key={action.id}
                  danger={action.danger}
                  icon={actionIcon(action, selectionCtx)}
                  onClick={() => runAction(action, selectionCtx)}
                  data-testid={action.id === 'zip' ? 'share-zip' : `share-${action.id}`}
                >
                  {action.label(t, selectionCtx)}
                </Button>
              ))
            : null}
          {newFolderAction ? (
            <Button
              icon={actionIcon(newFolderAction, folderCtx)}
              onClick={() => runAction(newFolderAction, folderCtx)}
              data-testid="share-new-folder"
            >
              {mobile ? null : newFolderAction.label(t, folderCtx)}
            </Button>
          ) : null}
          {uploadAction ? (
            <Dropdown
              trigger={['click']}
              menu={{
                items: visibleChildren(uploadAction, folderCtx).map((child) => ({
                  key: child.id,
                  icon: actionIcon(child, folderCtx),
                  label: (
                    <span
                      data-testid={
                        child.id === 'uploadFolder' ? 'share-upload-folder' : 'share-upload-files'
                      }
                    >
                      {child.label(t, folderCtx)}
                    </span>
                  ),
                })),
                onClick: ({ key }) => {
                  const child = visibleChildren(uploadAction, folderCtx).find((c) => c.id === key);
                  if (child) runAction(child, folderCtx);
                },
              }}
            >
              <Button
                type="primary"
                icon={actionIcon(uploadAction, folderCtx)}
                data-testid="share-upload"
              >
                {uploadAction.label(t, folderCtx)}
              </Button>
            </Dropdown>
          ) : null}
          {canUpload ? (
            <>
              <input
                ref={setFileInput}
                type="file"
                multiple
                hidden
                data-testid="share-upload-input"
                onChange={(event) => {
                  onPicked(event.target.files, false);
                  event.target.value = '';
                }}
              />
              <input
                ref={setFolderInput}
                type="file"
                multiple
                hidden
                {...({ webkitdirectory: '' } as object)}
                onChange={(event) => {
                  onPicked(event.target.files, true);
                  event.target.value = '';
                }}
              />
            </>
          ) : null}
          {extra}
          <Segmented
            value={vmode}
            onChange={(value) => setVmode(value as 'list' | 'grid')}
            options={[
              { value: 'list', icon: <UnorderedListOutlined />, title: t('page.list') },
              { value: 'grid', icon: <AppstoreOutlined />, title: t('page.grid') },
            ]}
            data-testid="share-view-toggle"
          />
        </Space>
      </div>

      {vmode === 'list' ? (
        <Table<PublicFileView>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={items}
          loading={listing.isFetching && !listing.data}
          pagination={false}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys as string[]),
            columnWidth: 40,
          }}
          onRow={(item) => ({ onDoubleClick: () => open(item), 'data-name': item.name }) as object}
          locale={{ emptyText: <Empty description={t('empty.title')} /> }}
          data-testid="share-list"
        />
      ) : (
        <div className="nb-share-grid" data-testid="share-grid">
          {items.length === 0 && !listing.isFetching ? (
            <Empty description={t('empty.title')} />
          ) : null}
          {items.map((item) => {
            const checked = selected.includes(item.id);
            return (
              <div
                key={item.id}
                className={`nb-share-tile${checked ? ' is-selected' : ''}`}
                data-name={item.name}
              >
                <Checkbox
                  className="nb-share-tile__check"
                  checked={checked}
                  onChange={(event) => toggle(item.id, event.target.checked)}
                  aria-label={item.name}
                />
                <button
                  type="button"
                  className="nb-share-tile__open"
                  onClick={() => open(item)}
                  data-testid={`share-tile-${item.name}`}
                >
                  <span className="nb-share-tile__thumb">
                    {isViewableImage(item) ? (
                      <img src={thumbnailUrl(item)} alt="" loading="lazy" />
                    ) : (
                      <FileIcon item={item} size={56} />
                    )}
                  </span>
                  <span className="nb-share-tile__name" title={item.name}>
                    {item.name}
                  </span>
                </button>
              </div>
            );
          })}
        </div>
      )}

      {(listing.data?.total ?? 0) > PAGE_SIZE ? (
        <Pagination
          className="nb-share-browser__pager"
          current={page}
          pageSize={PAGE_SIZE}
          total={listing.data?.total ?? 0}
          showSizeChanger={false}
          onChange={(next) => setPage(next)}
          size="small"
        />
      ) : null}

      <ShareUploadList items={uploads.items} onClose={uploads.close} />
      <NameDialog request={naming} onClose={() => setNaming(null)} />
      <ShareTextPreview
        shareId={shareId}
        item={textItem}
        canDownload={canDownload}
        onDownload={download}
        onClose={() => setTextItem(null)}
        mobile={mobile}
      />
      {imageId ? (
        <div hidden data-testid="share-image-viewer">
          <Image.PreviewGroup
            items={images.map((image) => ({
              src: previewUrl(image),
              alt: image.name,
            }))}
            preview={{
              open: true,
              current: Math.max(
                0,
                images.findIndex((image) => image.id === imageId),
              ),
              onChange: (index) => setImageId(images[index]?.id ?? null),
              onOpenChange: (visible) => {
                if (!visible) setImageId(null);
              },
              countRender: (n, total) => `${images[n - 1]?.name ?? ''} · ${n} / ${total}`,
            }}
          />
        </div>
      ) : null}
    </div>
  );
}
