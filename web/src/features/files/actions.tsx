import {
  AppstoreOutlined,
  CheckSquareOutlined,
  ClearOutlined,
  CloseSquareOutlined,
  CopyOutlined,
  DeleteOutlined,
  DisconnectOutlined,
  DownloadOutlined,
  EditOutlined,
  ExpandOutlined,
  ExportOutlined,
  FileAddOutlined,
  FolderOpenOutlined,
  InfoCircleOutlined,
  NodeIndexOutlined,
  ReloadOutlined,
  RollbackOutlined,
  ScissorOutlined,
  SnippetsOutlined,
  SortAscendingOutlined,
  StarFilled,
  StarOutlined,
  SwapOutlined,
  UnorderedListOutlined,
  BlockOutlined,
} from '@ant-design/icons';
import { FILE_AUTHORITY } from '../../actions/authorities';

export type {
  ActionContext,
  FileAction,
  FileCommands,
  FilesT,
  NewFileKind,
  ViewMode,
  ViewState,
} from '../../actions/file-actions';
import type { ReactNode } from 'react';
import type {
  ActionContext,
  ClipboardEntry,
  FileAction,
  NewFileKind,
  ViewMode,
} from '../../actions/file-actions';
import { clipboardMode } from './clipboard';
import { FileIcon } from '../../components/FileIcon';
import { isExtractable } from '../../lib/file-kinds';
import { isMount, type FileItem } from './types';
import { SORT_PROPS, type SortOrder, type SortProp } from '../../lib/view-kinds';

/** New documents the server creates empty (POST /api/addfile). */
const kindIcon = (ext: string) => (
  <FileIcon item={{ name: `new.${ext}`, suffix: ext, isFolder: false }} size={16} />
);

export const NEW_FILE_KINDS = [
  { id: 'text', ext: 'txt', icon: kindIcon('txt') },
  { id: 'markdown', ext: 'md', icon: kindIcon('md') },
  { id: 'mind', ext: 'mind', icon: kindIcon('mind') },
  { id: 'word', ext: 'docx', icon: kindIcon('docx') },
  { id: 'excel', ext: 'xlsx', icon: kindIcon('xlsx') },
  { id: 'ppt', ext: 'pptx', icon: kindIcon('pptx') },
] as const satisfies readonly { id: NewFileKind; ext: string; icon: ReactNode }[];

/**
 * The items file operations act on: the selection without mounts, which are not rows of this
 * drive (they open, or are removed, and nothing else).
 */
export const ownItems = (ctx: Pick<ActionContext, 'items'>): FileItem[] =>
  ctx.items.some(isMount) ? ctx.items.filter((item) => !isMount(item)) : ctx.items;

const one = (ctx: ActionContext) => ctx.items.length === 1;
const some = (ctx: ActionContext) => ctx.items.length > 0;
const someOwn = (ctx: ActionContext) => ownItems(ctx).length > 0;
const oneOwn = (ctx: ActionContext) => one(ctx) && !isMount(ctx.items[0]!);
const oneMount = (ctx: ActionContext) => one(ctx) && isMount(ctx.items[0]!);
const inTrash = (ctx: ActionContext) => ctx.view.kind === 'trash';
const live = (ctx: ActionContext) => !inTrash(ctx);
const first = (ctx: ActionContext) => ctx.items[0]!;

const viewModeAction = (mode: ViewMode): FileAction => ({
  id: `view-${mode}`,
  label: (t) => t(mode === 'list' ? 'view.list' : 'view.grid'),
  icon: mode === 'list' ? <UnorderedListOutlined /> : <AppstoreOutlined />,
  checked: (ctx) => ctx.view.vmode === mode,
  run: (ctx) => ctx.cmd.setViewMode(mode),
});

const sortPropAction = (prop: SortProp): FileAction => ({
  id: `sort-${prop}`,
  label: (t) => t(`sort.${prop}`),
  checked: (ctx) => ctx.view.sortProp === prop,
  run: (ctx) => ctx.cmd.setSort(prop, ctx.view.order),
});

const sortOrderAction = (order: SortOrder): FileAction => ({
  id: `sort-${order}`,
  label: (t) => t(`sort.${order}`),
  checked: (ctx) => ctx.view.order === order,
  run: (ctx) => ctx.cmd.setSort(ctx.view.sortProp, order),
});

const { upload, update, delete: remove, download } = FILE_AUTHORITY;

/** Pasting what was cut moves it (editing); what was copied makes new files (uploading). */
export const pasteAuthority = (clipboard: readonly ClipboardEntry[]) =>
  clipboardMode(clipboard) === 'cut' ? update : upload;

/**
 * The files feature's actions. With those of share and tags they make the one registry
 * (app/action-registry.ts) that the toolbar, the context menus, the keyboard shortcuts and
 * drag-and-drop read.
 */
export const FILE_ACTIONS = {
  open: {
    id: 'open',
    label: (t) => t('actions.open'),
    icon: <FolderOpenOutlined />,
    shortcut: { key: 'Enter' },
    visible: (ctx) => one(ctx) && live(ctx),
    run: (ctx) => ctx.cmd.open(first(ctx)),
  },
  download: {
    id: 'download',
    authority: download,
    label: (t, ctx) => {
      const items = ownItems(ctx);
      return items.length > 1 || items[0]?.isFolder
        ? t('actions.downloadZip')
        : t('actions.download');
    },
    icon: <DownloadOutlined />,
    visible: (ctx) => someOwn(ctx) && live(ctx),
    run: (ctx) => ctx.cmd.download(ownItems(ctx)),
  },
  favorite: {
    id: 'favorite',
    label: (t, ctx) =>
      ownItems(ctx).every((item) => item.isFavorite)
        ? t('actions.unfavorite')
        : t('actions.favorite'),
    icon: (ctx) =>
      ownItems(ctx).every((item) => item.isFavorite) ? <StarFilled /> : <StarOutlined />,
    visible: (ctx) => someOwn(ctx) && live(ctx),
    run: (ctx) => {
      const items = ownItems(ctx);
      ctx.cmd.setFavorite(items, !items.every((item) => item.isFavorite));
    },
  },
  details: {
    id: 'details',
    label: (t) => t('actions.details'),
    icon: <InfoCircleOutlined />,
    shortcut: { key: ' ' },
    visible: one,
    run: (ctx) => ctx.cmd.toggleDetails(first(ctx)),
  },
  copy: {
    id: 'copy',
    authority: upload,
    label: (t) => t('actions.copy'),
    icon: <CopyOutlined />,
    shortcut: { key: 'c', mod: true },
    visible: (ctx) => someOwn(ctx) && live(ctx),
    run: (ctx) => ctx.cmd.toClipboard(ownItems(ctx), 'copy'),
  },
  cut: {
    id: 'cut',
    authority: update,
    label: (t) => t('actions.cut'),
    icon: <ScissorOutlined />,
    shortcut: { key: 'x', mod: true },
    visible: (ctx) => someOwn(ctx) && live(ctx),
    run: (ctx) => ctx.cmd.toClipboard(ownItems(ctx), 'cut'),
  },
  paste: {
    id: 'paste',
    authority: (ctx) => pasteAuthority(ctx.clipboard),
    label: (t, ctx) =>
      clipboardMode(ctx.clipboard) === 'cut' ? t('actions.pasteMove') : t('actions.paste'),
    icon: <SnippetsOutlined />,
    shortcut: { key: 'v', mod: true },
    visible: (ctx) => ctx.view.writable,
    enabled: (ctx) => ctx.clipboard.length > 0,
    run: (ctx) => ctx.cmd.paste(),
  },
  rename: {
    id: 'rename',
    authority: update,
    label: (t) => t('actions.rename'),
    icon: <EditOutlined />,
    shortcut: { key: 'F2' },
    visible: (ctx) => oneOwn(ctx) && live(ctx),
    run: (ctx) => ctx.cmd.rename(first(ctx)),
  },
  moveCopy: {
    id: 'moveCopy',
    authority: [update, upload],
    label: (t) => t('actions.moveCopy'),
    icon: <SwapOutlined />,
    visible: (ctx) => someOwn(ctx) && live(ctx),
    run: (ctx) => ctx.cmd.moveOrCopy(ownItems(ctx)),
  },
  duplicate: {
    id: 'duplicate',
    authority: upload,
    label: (t) => t('actions.duplicate'),
    icon: <BlockOutlined />,
    shortcut: { key: 'd', mod: true },
    visible: (ctx) => oneOwn(ctx) && live(ctx) && !first(ctx).isFolder,
    run: (ctx) => ctx.cmd.duplicate(first(ctx)),
  },
  extract: {
    id: 'extract',
    authority: upload,
    label: (t) => t('actions.extract'),
    icon: <ExportOutlined />,
    visible: (ctx) => oneOwn(ctx) && live(ctx) && isExtractable(first(ctx)),
    run: (ctx) => ctx.cmd.extract(first(ctx)),
  },
  delete: {
    id: 'delete',
    authority: remove,
    label: (t) => t('actions.delete'),
    icon: <DeleteOutlined />,
    shortcut: { key: 'Delete' },
    danger: true,
    visible: (ctx) => someOwn(ctx) && live(ctx),
    run: (ctx) => ctx.cmd.trash(ownItems(ctx)),
  },
  unmount: {
    id: 'unmount',
    label: (t) => t('actions.unmount'),
    icon: <DisconnectOutlined />,
    shortcut: { key: 'Delete' },
    danger: true,
    visible: oneMount,
    run: (ctx) => ctx.cmd.unmount(first(ctx)),
  },
  restore: {
    id: 'restore',
    authority: remove,
    label: (t) => t('actions.restore'),
    icon: <RollbackOutlined />,
    visible: (ctx) => some(ctx) && inTrash(ctx),
    run: (ctx) => ctx.cmd.restore(ctx.items),
  },
  deleteForever: {
    id: 'deleteForever',
    authority: remove,
    label: (t) => t('actions.deleteForever'),
    icon: <DeleteOutlined />,
    shortcut: { key: 'Delete' },
    danger: true,
    visible: (ctx) => some(ctx) && inTrash(ctx),
    run: (ctx) => ctx.cmd.deleteForever(ctx.items),
  },
  emptyTrash: {
    id: 'emptyTrash',
    authority: remove,
    label: (t) => t('actions.emptyTrash'),
    icon: <ClearOutlined />,
    danger: true,
    visible: inTrash,
    enabled: (ctx) => ctx.view.total > 0,
    run: (ctx) => ctx.cmd.emptyTrash(),
  },
  deselect: {
    id: 'deselect',
    label: (t) => t('actions.deselect'),
    icon: <CloseSquareOutlined />,
    shortcut: { key: 'Escape' },
    visible: some,
    run: (ctx) => ctx.cmd.deselect(),
  },
  selectAll: {
    id: 'selectAll',
    label: (t) => t('actions.selectAll'),
    icon: <CheckSquareOutlined />,
    shortcut: { key: 'a', mod: true },
    enabled: (ctx) => ctx.view.total > 0,
    run: (ctx) => ctx.cmd.selectAll(),
  },
  refresh: {
    id: 'refresh',
    label: (t) => t('actions.refresh'),
    icon: <ReloadOutlined />,
    run: (ctx) => ctx.cmd.refresh(),
  },
  view: {
    id: 'view',
    label: (t) => t('actions.view'),
    icon: <ExpandOutlined />,
    children: () => [viewModeAction('list'), viewModeAction('grid')],
  },
  arrange: {
    id: 'arrange',
    label: (t) => t('actions.arrange'),
    icon: <SortAscendingOutlined />,
    children: () => [
      ...SORT_PROPS.map(sortPropAction),
      sortOrderAction('ascending'),
      sortOrderAction('descending'),
    ],
  },
  newFolder: {
    id: 'newFolder',
    authority: upload,
    label: (t) => t('actions.newFolder'),
    icon: <FileIcon item={{ name: 'folder', suffix: '', isFolder: true }} size={16} />,
    visible: (ctx) => ctx.view.writable,
    run: (ctx) => ctx.cmd.newFolder(),
  },
  new: {
    id: 'new',
    authority: upload,
    label: (t) => t('actions.new'),
    icon: <FileAddOutlined />,
    visible: (ctx) => ctx.view.writable,
    children: (): FileAction[] => [
      FILE_ACTIONS.newFolder,
      ...NEW_FILE_KINDS.map((kind): FileAction => ({
        id: `new-${kind.id}`,
        label: (t) => t(`newFile.kinds.${kind.id}`),
        icon: kind.icon,
        run: (ctx) => ctx.cmd.newFile(kind.id),
      })),
    ],
  },
  moveTo: {
    // drag-and-drop onto a folder; the confirm comes from the command
    id: 'moveTo',
    authority: update,
    label: (t) => t('actions.moveTo'),
    icon: <NodeIndexOutlined />,
    visible: (ctx) => someOwn(ctx) && live(ctx),
  },
} satisfies Record<string, FileAction>;
