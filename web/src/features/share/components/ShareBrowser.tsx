import {
  AppstoreOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  EyeOutlined,
  FileAddOutlined,
  FolderAddOutlined,
  FolderOpenOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
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
  Input,
  Pagination,
  Segmented,
  Space,
  Table,
  Tooltip,
  type TableColumnsType,
} from 'antd';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../../lib/format';
import { startDownload } from '../../files/api';
import { FileIcon } from '../../files/components/FileIcon';
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
import {
  checkShareNames,
  uploadToShare,
  type PickedShareFile,
  type PublicUploadItem,
} from '../public-upload';
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
  const [selected, setSelected] = useState<string[]>([]);
  const [textItem, setTextItem] = useState<PublicFileView | null>(null);
  const [imageId, setImageId] = useState<string | null>(null);
  const [uploads, setUploads] = useState<PublicUploadItem[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const segments = segmentsOf(path);
  const shareId = facts.shareId;
  const ops = new Set(facts.operationPermissionList ?? []);
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

  const zipSelected = () => {
    if (!canDownload) {
      void message.warning(t('page.noDownload'));
      return;
    }
    startDownload(sharedZipUrl(shareId, selected), 'download.zip');
  };

  const askName = (title: string, initial: string, submit: (name: string) => Promise<unknown>) => {
    let value = initial;
    modal.confirm({
      title,
      icon: null,
      content: (
        <Input
          autoFocus
          defaultValue={initial}
          onChange={(event) => (value = event.target.value)}
          data-testid="share-name-input"
        />
      ),
      okText: t('common:actions.ok'),
      cancelText: t('common:actions.cancel'),
      onOk: async () => {
        await submit(value.trim());
        await refresh();
      },
    });
  };

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

  const startUpload = async (picked: PickedShareFile[]) => {
    if (picked.length === 0) return;
    const dir = pathOf(segments);
    const names = await checkShareNames(shareId, dir, picked).catch(() => null);
    if (!names) return;
    if (names.exist) {
      if (!names.replace) {
        void message.error(t('page.existsNoReplace'));
        return;
      }
      const confirmed = await modal.confirm({
        title: t('page.exists'),
        okText: t('common:actions.ok'),
        cancelText: t('common:actions.cancel'),
      });
      if (!confirmed) return;
    }
    const result = await uploadToShare(shareId, dir, picked, setUploads);
    const failed = result.filter((item) => item.status === 'failure').length;
    if (failed) void message.error(t('page.uploadFailed', { count: failed }));
    else void message.success(t('page.uploaded', { count: result.length }));
    await refresh();
  };

  const onPicked = (files: FileList | null, folder: boolean) => {
    const picked = Array.from(files ?? []).map((file) => ({
      file,
      relativePath: folder && file.webkitRelativePath ? file.webkitRelativePath : file.name,
    }));
    void startUpload(picked);
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
      render: (_, item) => (
        <Space size={0}>
          {!item.isFolder && (isViewableImage(item) || isTextLike(item)) ? (
            <Tooltip title={t('page.preview')}>
              <Button
                type="text"
                size="small"
                icon={<EyeOutlined />}
                onClick={() => open(item)}
                aria-label={t('page.preview')}
              />
            </Tooltip>
          ) : null}
          {canDownload ? (
            <Tooltip title={item.isFolder ? t('page.downloadZip') : t('page.download')}>
              <Button
                type="text"
                size="small"
                icon={<DownloadOutlined />}
                onClick={() => download(item)}
                aria-label={t('page.download')}
                data-testid={`share-download-${item.name}`}
              />
            </Tooltip>
          ) : null}
          {ops.has('PUT') ? (
            <Tooltip title={t('page.rename')}>
              <Button
                type="text"
                size="small"
                icon={<EditOutlined />}
                aria-label={t('page.rename')}
                onClick={() =>
                  askName(t('page.rename'), item.name, (name) =>
                    renameShared(shareId, item.id, name),
                  )
                }
              />
            </Tooltip>
          ) : null}
          {ops.has('DELETE') ? (
            <Tooltip title={t('page.delete')}>
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('page.delete')}
                onClick={() => remove([item.id])}
              />
            </Tooltip>
          ) : null}
        </Space>
      ),
    },
  ];

  const toggle = (id: string, on: boolean) =>
    setSelected((current) =>
      on ? [...new Set([...current, id])] : current.filter((x) => x !== id),
    );

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
          {selected.length > 0 && canDownload ? (
            <Button icon={<DownloadOutlined />} onClick={zipSelected} data-testid="share-zip">
              {t('page.downloadSelected', { count: selected.length })}
            </Button>
          ) : null}
          {selected.length > 0 && ops.has('DELETE') ? (
            <Button
              danger
              icon={<DeleteOutlined />}
              onClick={() => remove(selected)}
              data-testid="share-delete"
            >
              {t('page.delete')}
            </Button>
          ) : null}
          {ops.has('UPLOAD') ? (
            <>
              <Button
                icon={<FolderAddOutlined />}
                onClick={() =>
                  askName(t('page.newFolder'), '', (name) =>
                    newSharedFolder(shareId, pathOf(segments), name),
                  )
                }
                data-testid="share-new-folder"
              >
                {mobile ? null : t('page.newFolder')}
              </Button>
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    {
                      key: 'files',
                      icon: <FileAddOutlined />,
                      label: <span data-testid="share-upload-files">{t('page.uploadFiles')}</span>,
                    },
                    {
                      key: 'folder',
                      icon: <FolderAddOutlined />,
                      label: (
                        <span data-testid="share-upload-folder">{t('page.uploadFolder')}</span>
                      ),
                    },
                  ],
                  onClick: ({ key }) =>
                    key === 'folder' ? folderInput.current?.click() : fileInput.current?.click(),
                }}
              >
                <Button type="primary" icon={<CloudUploadOutlined />} data-testid="share-upload">
                  {t('page.upload')}
                </Button>
              </Dropdown>
              <input
                ref={fileInput}
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
                ref={folderInput}
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

      <ShareUploadList items={uploads} onClose={() => setUploads([])} />
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
