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
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { shareFileAction } from '../share/file-action';
import { tagFileAction } from '../tags/file-action';
import { clipboardMode, type ClipboardEntry } from './clipboard';
import { FileIcon } from './components/FileIcon';
import { isExtractable } from './file-kinds';
import type { Shortcut } from './shortcuts';
import { isMount, type FileItem } from './types';
import { SORT_PROPS, type FileViewKind, type SortOrder, type SortProp } from './view-kinds';

export type ViewMode = 'list' | 'grid';

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
] as const;
export type NewFileKind = (typeof NEW_FILE_KINDS)[number]['id'];

/** What the screen around the items is. */
export interface ViewState {
  kind: FileViewKind;
  path: string;
  /** A folder of one's own tree: new items, paste and drops go here. */
  writable: boolean;
  vmode: ViewMode;
  sortProp: SortProp;
  order: SortOrder;
  /** Items the view holds (all pages). */
  total: number;
}

/** The work behind the actions; the file browser implements it. */
export interface FileCommands {
  open(item: FileItem): void;
  download(items: FileItem[]): void;
  setFavorite(items: FileItem[], favorite: boolean): void;
  toggleDetails(item: FileItem | null): void;
  toClipboard(items: FileItem[], mode: 'copy' | 'cut'): void;
  /** Copy or move the clipboard here; the clipboard's own mode unless told. */
  paste(mode?: 'copy' | 'move'): void;
  rename(item: FileItem): void;
  moveOrCopy(items: FileItem[]): void;
  duplicate(item: FileItem): void;
  extract(item: FileItem): void;
  /** Take a mount out of the folder it was placed in. */
  unmount(item: FileItem): void;
  trash(items: FileItem[]): void;
  restore(items: FileItem[]): void;
  deleteForever(items: FileItem[]): void;
  emptyTrash(): void;
  deselect(): void;
  selectAll(): void;
  refresh(): void;
  setViewMode(mode: ViewMode): void;
  setSort(prop: SortProp, order: SortOrder): void;
  newFolder(): void;
  newFile(kind: NewFileKind): void;
}

export interface ActionContext {
  /** The items acted on: the selection, or the item right-clicked (mounts included). */
  items: FileItem[];
  view: ViewState;
  clipboard: ClipboardEntry[];
  cmd: FileCommands;
}

export type FilesT = TFunction<'files'>;

export interface FileAction {
  id: string;
  label: (t: FilesT, ctx: ActionContext) => string;
  icon?: ReactNode | ((ctx: ActionContext) => ReactNode);
  shortcut?: Shortcut;
  danger?: boolean;
  /** Shown at all in this context. */
  visible?: (ctx: ActionContext) => boolean;
  /** Shown but greyed out when false. */
  enabled?: (ctx: ActionContext) => boolean;
  /** Ticked in a menu (the current view mode or sort). */
  checked?: (ctx: ActionContext) => boolean;
  run?: (ctx: ActionContext) => void;
  /** A sub-menu. */
  children?: (ctx: ActionContext) => FileAction[];
}

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

/**
 * Every action of the file browser, in one place (ARCHITECTURE §6): the toolbar, the context
 * menus, the keyboard shortcuts and drag-and-drop all read from here.
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
  // the share feature's own action (it holds the dialog)
  share: shareFileAction,
  // the tags feature's own action (it holds the dialog)
  tags: tagFileAction,
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
    label: (t) => t('actions.copy'),
    icon: <CopyOutlined />,
    shortcut: { key: 'c', mod: true },
    visible: (ctx) => someOwn(ctx) && live(ctx),
    run: (ctx) => ctx.cmd.toClipboard(ownItems(ctx), 'copy'),
  },
  cut: {
    id: 'cut',
    label: (t) => t('actions.cut'),
    icon: <ScissorOutlined />,
    shortcut: { key: 'x', mod: true },
    visible: (ctx) => someOwn(ctx) && live(ctx),
    run: (ctx) => ctx.cmd.toClipboard(ownItems(ctx), 'cut'),
  },
  paste: {
    id: 'paste',
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
    label: (t) => t('actions.rename'),
    icon: <EditOutlined />,
    shortcut: { key: 'F2' },
    visible: (ctx) => oneOwn(ctx) && live(ctx),
    run: (ctx) => ctx.cmd.rename(first(ctx)),
  },
  moveCopy: {
    id: 'moveCopy',
    label: (t) => t('actions.moveCopy'),
    icon: <SwapOutlined />,
    visible: (ctx) => someOwn(ctx) && live(ctx),
    run: (ctx) => ctx.cmd.moveOrCopy(ownItems(ctx)),
  },
  duplicate: {
    id: 'duplicate',
    label: (t) => t('actions.duplicate'),
    icon: <BlockOutlined />,
    shortcut: { key: 'd', mod: true },
    visible: (ctx) => oneOwn(ctx) && live(ctx) && !first(ctx).isFolder,
    run: (ctx) => ctx.cmd.duplicate(first(ctx)),
  },
  extract: {
    id: 'extract',
    label: (t) => t('actions.extract'),
    icon: <ExportOutlined />,
    visible: (ctx) => oneOwn(ctx) && live(ctx) && isExtractable(first(ctx)),
    run: (ctx) => ctx.cmd.extract(first(ctx)),
  },
  delete: {
    id: 'delete',
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
    label: (t) => t('actions.restore'),
    icon: <RollbackOutlined />,
    visible: (ctx) => some(ctx) && inTrash(ctx),
    run: (ctx) => ctx.cmd.restore(ctx.items),
  },
  deleteForever: {
    id: 'deleteForever',
    label: (t) => t('actions.deleteForever'),
    icon: <DeleteOutlined />,
    shortcut: { key: 'Delete' },
    danger: true,
    visible: (ctx) => some(ctx) && inTrash(ctx),
    run: (ctx) => ctx.cmd.deleteForever(ctx.items),
  },
  emptyTrash: {
    id: 'emptyTrash',
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
    label: (t) => t('actions.newFolder'),
    icon: <FileIcon item={{ name: 'folder', suffix: '', isFolder: true }} size={16} />,
    visible: (ctx) => ctx.view.writable,
    run: (ctx) => ctx.cmd.newFolder(),
  },
  new: {
    id: 'new',
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
    label: (t) => t('actions.moveTo'),
    icon: <NodeIndexOutlined />,
    visible: (ctx) => someOwn(ctx) && live(ctx),
  },
} satisfies Record<string, FileAction>;

export type ActionId = keyof typeof FILE_ACTIONS;

/** One entry of a menu layout: an action, or a divider. */
export type MenuEntry = ActionId | '-';

/** spec / API-NOTES §3: dividers after Download and Details and before Delete. */
export const MENUS = {
  item: [
    'open',
    'download',
    '-',
    'share',
    'tags',
    'favorite',
    'details',
    '-',
    'copy',
    'cut',
    'rename',
    'moveCopy',
    'duplicate',
    'extract',
    '-',
    'delete',
    'unmount',
  ],
  multi: [
    'deselect',
    'download',
    '-',
    'tags',
    'favorite',
    'copy',
    'cut',
    'moveCopy',
    '-',
    'delete',
  ],
  trashItem: ['restore', 'details', '-', 'deleteForever'],
  trashMulti: ['deselect', 'restore', '-', 'deleteForever'],
  background: ['view', 'arrange', 'refresh', '-', 'new', 'paste', '-', 'selectAll'],
  trashBackground: ['view', 'arrange', 'refresh', '-', 'selectAll', '-', 'emptyTrash'],
} satisfies Record<string, MenuEntry[]>;

/** The menu for what was right-clicked: one item, several, or the empty background. */
export function menuFor(ctx: ActionContext): MenuEntry[] {
  const trash = ctx.view.kind === 'trash';
  if (ctx.items.length === 0) return trash ? MENUS.trashBackground : MENUS.background;
  if (ctx.items.length === 1) return trash ? MENUS.trashItem : MENUS.item;
  return trash ? MENUS.trashMulti : MENUS.multi;
}

export function isVisible(action: FileAction, ctx: ActionContext): boolean {
  return action.visible ? action.visible(ctx) : true;
}

export function isEnabled(action: FileAction, ctx: ActionContext): boolean {
  return isVisible(action, ctx) && (action.enabled ? action.enabled(ctx) : true);
}

/** The visible entries of a menu, without leading, trailing or doubled dividers. */
export function visibleEntries(
  entries: readonly MenuEntry[],
  ctx: ActionContext,
): (FileAction | '-')[] {
  const out: (FileAction | '-')[] = [];
  for (const entry of entries) {
    if (entry === '-') {
      if (out.length && out[out.length - 1] !== '-') out.push('-');
      continue;
    }
    const action: FileAction = FILE_ACTIONS[entry];
    if (isVisible(action, ctx)) out.push(action);
  }
  while (out[out.length - 1] === '-') out.pop();
  return out;
}

/** The actions that answer to keys, in the order they are tried. */
export const SHORTCUT_ACTIONS: ActionId[] = [
  'rename',
  'delete',
  'unmount',
  'deleteForever',
  'copy',
  'cut',
  'paste',
  'duplicate',
  'selectAll',
  'details',
  'open',
];

export function actionIcon(action: FileAction, ctx: ActionContext): ReactNode {
  return typeof action.icon === 'function' ? action.icon(ctx) : action.icon;
}
