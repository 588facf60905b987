import {
  CloudUploadOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  EyeOutlined,
  FileAddOutlined,
  FolderAddOutlined,
} from '@ant-design/icons';
import type { PublicFileView, ShareFacts } from '@nimbus/contract';
import type { TFunction } from 'i18next';
import { visibleEntries } from '../../actions/registry';
import type { Action, ActionScope, Authority, MenuEntry } from '../../actions/types';
import { isTextLike, isViewableImage } from '../../lib/file-kinds';

/**
 * What a share lets its visitors do (spec §6): its download switch and its operation
 * permissions, as the authorities the share browser's actions need.
 */
export const SHARE_PERMISSION = {
  download: 'share:download',
  upload: 'share:upload',
  edit: 'share:edit',
  delete: 'share:delete',
} as const satisfies Record<string, Authority>;

/** Whether a share grants one of SHARE_PERMISSION. */
export function sharePermissionCheck(facts: ShareFacts): (authority: Authority) => boolean {
  const ops = new Set(facts.operationPermissionList ?? []);
  const granted = new Set<Authority>();
  if (facts.allowDownload !== false) granted.add(SHARE_PERMISSION.download);
  if (ops.has('UPLOAD')) granted.add(SHARE_PERMISSION.upload);
  if (ops.has('PUT')) granted.add(SHARE_PERMISSION.edit);
  if (ops.has('DELETE')) granted.add(SHARE_PERMISSION.delete);
  return (authority) => granted.has(authority);
}

/** The work behind the share browser's actions; the share browser implements it. */
export interface ShareBrowserCommands {
  open(item: PublicFileView): void;
  download(item: PublicFileView): void;
  zip(items: PublicFileView[]): void;
  rename(item: PublicFileView): void;
  remove(items: PublicFileView[]): void;
  newFolder(): void;
  uploadFiles(): void;
  uploadFolder(): void;
}

/** What the share browser's actions see; `can` follows the share's permissions. */
export interface ShareBrowserContext extends ActionScope {
  /** The items acted on: the row's item, or the selection (toolbar). */
  items: PublicFileView[];
  cmd: ShareBrowserCommands;
}

export type ShareT = TFunction<['share', 'common']>;

export type ShareBrowserAction = Action<ShareBrowserContext, ShareT>;

const one = (ctx: ShareBrowserContext) => ctx.items.length === 1;
const some = (ctx: ShareBrowserContext) => ctx.items.length > 0;
const first = (ctx: ShareBrowserContext) => ctx.items[0]!;

/**
 * The share feature's actions in the share browser's registry (SHARE_ACTIONS, below): each is
 * hidden when the share does not allow it, never offered and then refused.
 */
export const SHARE_BROWSER_ACTIONS = {
  preview: {
    id: 'preview',
    label: (t) => t('page.preview'),
    icon: <EyeOutlined />,
    visible: (ctx) =>
      one(ctx) && !first(ctx).isFolder && (isViewableImage(first(ctx)) || isTextLike(first(ctx))),
    run: (ctx) => ctx.cmd.open(first(ctx)),
  },
  download: {
    id: 'download',
    label: (t, ctx) => (first(ctx).isFolder ? t('page.downloadZip') : t('page.download')),
    icon: <DownloadOutlined />,
    authority: SHARE_PERMISSION.download,
    visible: one,
    run: (ctx) => ctx.cmd.download(first(ctx)),
  },
  zip: {
    id: 'zip',
    label: (t, ctx) => t('page.downloadSelected', { count: ctx.items.length }),
    icon: <DownloadOutlined />,
    authority: SHARE_PERMISSION.download,
    visible: some,
    run: (ctx) => ctx.cmd.zip(ctx.items),
  },
  rename: {
    id: 'rename',
    label: (t) => t('page.rename'),
    icon: <EditOutlined />,
    shortcut: { key: 'F2' },
    authority: SHARE_PERMISSION.edit,
    visible: one,
    run: (ctx) => ctx.cmd.rename(first(ctx)),
  },
  delete: {
    id: 'delete',
    label: (t) => t('page.delete'),
    icon: <DeleteOutlined />,
    shortcut: { key: 'Delete' },
    danger: true,
    authority: SHARE_PERMISSION.delete,
    visible: some,
    run: (ctx) => ctx.cmd.remove(ctx.items),
  },
  newFolder: {
    id: 'newFolder',
    label: (t) => t('page.newFolder'),
    icon: <FolderAddOutlined />,
    authority: SHARE_PERMISSION.upload,
    run: (ctx) => ctx.cmd.newFolder(),
  },
  upload: {
    id: 'upload',
    label: (t) => t('page.upload'),
    icon: <CloudUploadOutlined />,
    authority: SHARE_PERMISSION.upload,
    children: () => [
      {
        id: 'uploadFiles',
        label: (t) => t('page.uploadFiles'),
        icon: <FileAddOutlined />,
        run: (ctx) => ctx.cmd.uploadFiles(),
      },
      {
        id: 'uploadFolder',
        label: (t) => t('page.uploadFolder'),
        icon: <FolderAddOutlined />,
        run: (ctx) => ctx.cmd.uploadFolder(),
      },
    ],
  },
} satisfies Record<string, ShareBrowserAction>;

/**
 * The share browser's registry: what a visitor (or a mounter) does in a share. Its actions need
 * the share's permissions the way the file browser's need the role's authorities.
 */
export const SHARE_ACTIONS = {
  ...SHARE_BROWSER_ACTIONS,
} satisfies Record<string, ShareBrowserAction>;

export type ShareActionId = keyof typeof SHARE_ACTIONS;

/** The share browser's layouts: an item's buttons, the selection's and the folder's. */
export const SHARE_MENUS = {
  item: ['preview', 'download', 'rename', 'delete'],
  selection: ['zip', 'delete'],
  folder: ['newFolder', 'upload'],
} satisfies Record<string, MenuEntry<ShareActionId>[]>;

/** The visible actions of a share browser layout. */
export function visibleShareActions(
  entries: readonly MenuEntry<ShareActionId>[],
  ctx: ShareBrowserContext,
): ShareBrowserAction[] {
  return visibleEntries<ShareBrowserContext, ShareBrowserAction>(
    entries,
    SHARE_ACTIONS,
    ctx,
  ).filter((entry): entry is ShareBrowserAction => entry !== '-');
}
