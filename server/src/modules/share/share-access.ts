import { ADMIN_ROLE, ErrorCode, type ShareOperation } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { DOWNLOAD_AUTHORITY, type Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import type { FileRow } from '../files/files.service.ts';
import { prefixOf, type Owner } from '../files/files.service.ts';
import { folderPathOf, parseFolderPath } from '../files/names.ts';
import type { UsersService } from '../users/users.service.ts';
import { ShareRepo, type MountRow, type ShareRow } from './share.repo.ts';
import { codeFingerprint, type ShareTokens } from './share-token.ts';
import type { FilesRepo } from '../files/files.repo.ts';

/** A share with the row of what it shares. */
export interface SharedRow {
  share: ShareRow;
  file: FileRow;
}

/** Each share with its item's row (in the order given; shares without one are left out). */
export function pairWithFiles(shares: ShareRow[], files: FileRow[]): SharedRow[] {
  const byId = new Map(files.map((f) => [f.id, f]));
  const out: SharedRow[] = [];
  for (const share of shares) {
    const file = byId.get(share.fileId);
    if (file) out.push({ share, file });
  }
  return out;
}

/** What a visitor may do with a share besides opening it. */
export type ShareAction = 'download' | 'upload' | 'edit' | 'delete';

/** The settings in force: a share's own, or those of the outermost shared folder around it. */
export interface ShareSettings {
  isPrivacy: boolean;
  code: string | null;
  expiresAt: number | null;
  allowDownload: boolean;
  canUpload: boolean;
  canEdit: boolean;
  canDelete: boolean;
}

export interface ShareOwner extends Owner {
  showName: string;
  avatar: string | null;
}

/** A share found and alive: what anyone may learn about it. */
export interface LocatedShare {
  share: ShareRow;
  settings: ShareSettings;
  /** The share whose settings apply, when this one sits inside another shared folder. */
  parent: ShareRow | null;
  /** The shared file or folder (live). */
  root: FileRow;
  owner: ShareOwner;
  /** The owner holds the download authority: a share gives no more than its owner has. */
  ownerMayDownload: boolean;
}

/** How a request holds a share open. */
export type OpenedVia = 'public' | 'token' | 'owner' | 'mount';

export interface OpenShare extends LocatedShare {
  via: OpenedVia;
}

/** What a request brings to a share: its address, a share token, a signed-in actor. */
export interface ShareCredentials {
  share: string;
  token?: string | null;
  actor: Actor | null;
}

/** Where in a share: an item id, or a path relative to the shared folder. */
export interface ShareTarget {
  fileId?: string | null;
  path?: string | null;
}

// Each refusal is one clear message that reveals nothing beyond what the visitor asked about.
export const shareErrors = {
  gone: () =>
    new AppError(ErrorCode.NOT_FOUND, 'This share link does not exist or has been cancelled', {
      reason: 'cancelled',
    }),
  expired: () =>
    new AppError(
      ErrorCode.ACCESS_FORBIDDEN,
      'This share link has expired',
      { reason: 'expired' },
      410,
    ),
  codeRequired: () =>
    new AppError(
      ErrorCode.LOCKED,
      'Enter the share code to open this share',
      { reason: 'code' },
      403,
    ),
  wrongCode: () => new AppError(ErrorCode.WRONG_SHARE_CODE, 'The share code is wrong'),
  notInShare: () => new AppError(ErrorCode.FILE_NOT_FOUND, 'The file does not exist in this share'),
  previewOnly: () =>
    new AppError(
      ErrorCode.PERMISSION_DENIED,
      'The sharer does not allow downloads, and this file cannot be previewed',
      { reason: 'download' },
    ),
  notAllowed: (action: ShareAction) =>
    new AppError(
      ErrorCode.PERMISSION_DENIED,
      action === 'download'
        ? 'The sharer does not allow downloads'
        : `This share does not allow ${action === 'edit' ? 'editing' : action === 'delete' ? 'deleting' : 'uploading'}`,
      { reason: action },
    ),
};

export const isExpired = (settings: Pick<ShareSettings, 'expiresAt'>, now = Date.now()) =>
  settings.expiresAt !== null && settings.expiresAt <= now;

export function ownSettings(share: ShareRow): ShareSettings {
  const isPrivacy = share.isPrivacy === 1;
  return {
    isPrivacy,
    code: isPrivacy ? share.code : null,
    expiresAt: share.expiresAt === null ? null : Number(share.expiresAt),
    allowDownload: share.allowDownload === 1,
    // visitor operations exist only for private shares (API-NOTES §1.4, §3)
    canUpload: isPrivacy && share.canUpload === 1,
    canEdit: isPrivacy && share.canEdit === 1,
    canDelete: isPrivacy && share.canDelete === 1,
  };
}

export function operationsOf(settings: ShareSettings): ShareOperation[] {
  const list: ShareOperation[] = [];
  if (settings.canUpload) list.push('UPLOAD');
  if (settings.canEdit) list.push('PUT');
  if (settings.canDelete) list.push('DELETE');
  return list;
}

/** Whether `row` is the shared item or lies below it. */
export function isWithin(
  root: Pick<FileRow, 'id' | 'path' | 'name' | 'isFolder' | 'userId'>,
  row: Pick<FileRow, 'id' | 'path' | 'userId'>,
): boolean {
  if (row.userId !== root.userId) return false;
  if (row.id === root.id) return true;
  return root.isFolder === 1 && row.path.startsWith(prefixOf(root));
}

/** The parent path of an item as a visitor sees it: relative to the shared folder. */
export function publicPathOf(root: FileRow, row: FileRow): string {
  if (row.id === root.id) return '/';
  return `/${row.path.slice(prefixOf(root).length)}`;
}

/**
 * The one gate of every public share route and of mounted files: (share, token, file id or
 * relative path) → (owner, row). A share is found by its address, must be alive (not
 * cancelled, its item not in the trash, not expired), must be open to the request (public, a
 * valid token for this very share and code, its owner, or a mounter of it), and a target must
 * be the shared item or lie below it: ids of other items, other users' ids, paths with `..`
 * and anything outside the subtree are answered as "not in this share".
 */
export class ShareAccess {
  readonly repo: ShareRepo;

  constructor(
    db: Db,
    private readonly fileRows: FilesRepo,
    private readonly users: UsersService,
    readonly tokens: ShareTokens,
    /** Lifetime of a token issued for a code (the session lifetime). */
    private readonly tokenTtlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = new ShareRepo(db);
  }

  /**
   * The live shared folders among the ancestors of an item, outermost first: the shares a share
   * of that item would sit inside.
   */
  async enclosing(userId: string, itemPath: string): Promise<SharedRow[]> {
    const shares = await this.repo.enclosing(userId, itemPath);
    if (shares.length === 0) return [];
    const folders = await this.fileRows.liveMany(
      userId,
      shares.map((s) => s.fileId),
    );
    return pairWithFiles(shares, folders).sort(
      (a, b) => [...a.file.path].length - [...b.file.path].length,
    );
  }

  /** The settings in force for a share whose item is `root`, and the share they come from. */
  async effective(
    share: ShareRow,
    root: FileRow,
  ): Promise<{ settings: ShareSettings; parent: ShareRow | null }> {
    const around = await this.enclosing(share.userId, root.path);
    const outer = around[0];
    if (outer) return { settings: ownSettings(outer.share), parent: outer.share };
    return { settings: ownSettings(share), parent: null };
  }

  /** A share by its address, alive and not expired: the facts anyone may see. */
  async locate(address: string): Promise<LocatedShare> {
    const found = await this.locateAny(address);
    if (isExpired(found.settings, this.now())) throw shareErrors.expired();
    return found;
  }

  /** A share by its address whose item is alive, expired or not. */
  async locateAny(address: string): Promise<LocatedShare> {
    if (!address || address.length > 128) throw shareErrors.gone();
    const share = await this.repo.byAddress(address);
    if (!share) throw shareErrors.gone();
    return this.located(share);
  }

  private async located(share: ShareRow): Promise<LocatedShare> {
    const root = await this.fileRows.live(share.userId, share.fileId);
    if (!root) throw shareErrors.gone();
    const account = await this.users.accountById(share.userId);
    if (!account) throw shareErrors.gone();
    // what a visitor may learn of the owner, and nothing more of the account
    const owner: ShareOwner = {
      id: account.id,
      username: account.username,
      showName: account.showName,
      avatar: account.avatar,
    };
    const { settings, parent } = await this.effective(share, root);
    const grants = await this.users.grantsOf(account.id);
    const ownerMayDownload =
      account.isCreator === 1 ||
      grants.roleCodes.includes(ADMIN_ROLE.code) ||
      grants.authorities.includes(DOWNLOAD_AUTHORITY);
    return { share, settings, parent, root, owner, ownerMayDownload };
  }

  /** How the request holds the share open, or null when it needs the code first. */
  async openedVia(
    located: LocatedShare,
    creds: Omit<ShareCredentials, 'share'>,
  ): Promise<OpenedVia | null> {
    if (!located.settings.isPrivacy) return 'public';
    if (creds.actor?.id === located.owner.id) return 'owner';
    const claims = await this.tokens.verify(creds.token);
    if (
      claims &&
      claims.shareId === located.share.id &&
      claims.code === codeFingerprint(located.share.id, located.settings.code)
    )
      return 'token';
    if (creds.actor && (await this.repo.mountOf(creds.actor.id, located.share.id))) return 'mount';
    return null;
  }

  /** A share open to this request; a private one without its code is refused. */
  async open(creds: ShareCredentials): Promise<OpenShare> {
    const located = await this.locate(creds.share);
    const via = await this.openedVia(located, creds);
    if (!via) throw shareErrors.codeRequired();
    return { ...located, via };
  }

  /** The item a target names inside an open share; everything else is "not in this share". */
  async resolve(open: LocatedShare, target: ShareTarget): Promise<FileRow> {
    const { root, owner } = open;
    if (target.fileId) {
      if (target.fileId === root.id) return root;
      const row = await this.fileRows.live(owner.id, target.fileId);
      if (!row || !isWithin(root, row)) throw shareErrors.notInShare();
      return row;
    }
    // parseFolderPath refuses `.`, `..`, separators and control characters in every segment
    const segments = parseFolderPath(target.path);
    if (segments.length === 0) return root;
    if (root.isFolder !== 1) throw shareErrors.notInShare();
    const name = segments.pop()!;
    const row = await this.fileRows.liveAt(
      owner.id,
      `${prefixOf(root)}${segments.length ? `${segments.join('/')}/` : ''}`,
      name,
    );
    if (!row || !isWithin(root, row)) throw shareErrors.notInShare();
    return row;
  }

  /** Open the share and find the target in it, in one call: what every public route does. */
  async access(
    creds: ShareCredentials,
    target: ShareTarget = {},
  ): Promise<{ open: OpenShare; row: FileRow }> {
    const open = await this.open(creds);
    return { open, row: await this.resolve(open, target) };
  }

  /** The share allows this change (downloads are `bytesGrant`'s, files/bytes-grant.ts). */
  require(open: LocatedShare, action: Exclude<ShareAction, 'download'>): void {
    const s = open.settings;
    const allowed =
      open.root.isFolder === 1 &&
      (action === 'upload' ? s.canUpload : action === 'edit' ? s.canEdit : s.canDelete);
    if (!allowed) throw shareErrors.notAllowed(action);
  }

  /** A folder path inside the share (relative, checked) as the owner's absolute folder path. */
  ownerFolderPath(open: LocatedShare, relative: string | undefined | null): string {
    if (open.root.isFolder !== 1) throw shareErrors.notInShare();
    return folderPathOf([...parseFolderPath(prefixOf(open.root)), ...parseFolderPath(relative)]);
  }

  /** A token for this share and its current code, expiring with the share or the session. */
  issueToken(located: LocatedShare): Promise<string> {
    const ceiling = this.now() + this.tokenTtlMs;
    const expiresAt =
      located.settings.expiresAt === null ? ceiling : Math.min(ceiling, located.settings.expiresAt);
    return this.tokens.sign({
      shareId: located.share.id,
      code: codeFingerprint(located.share.id, located.settings.code),
      expiresAt,
    });
  }

  /**
   * A share the actor mounted, held open through the mount as `fileForActor` holds it: alive
   * and not expired, or refused like any other way in.
   */
  async openMount(mount: Pick<MountRow, 'shareId'>): Promise<OpenShare> {
    return { ...(await this.locate(mount.shareId)), via: 'mount' };
  }

  /**
   * A file a signed-in user may open by id: their own, or one inside a share they mounted
   * (files owned by another user, spec §6). Anything else is not found.
   */
  async fileForActor(
    actor: Actor,
    fileId: string,
  ): Promise<{ owner: Owner; row: FileRow; open: OpenShare | null }> {
    const own = await this.fileRows.live(actor.id, fileId);
    if (own) return { owner: actor, row: own, open: null };
    const mounted = await this.repo.sharesMountedBy(actor.id);
    // only the owners of shares the actor mounted are asked for the file
    let row: FileRow | undefined;
    for (const ownerId of new Set(mounted.map((s) => s.userId))) {
      if (ownerId !== actor.id) row = await this.fileRows.live(ownerId, fileId);
      if (row) break;
    }
    const missing = new AppError(ErrorCode.FILE_NOT_FOUND, 'The file does not exist');
    if (!row) throw missing;
    let refusal: unknown = missing;
    for (const share of mounted) {
      if (share.userId !== row.userId) continue;
      let located: LocatedShare;
      try {
        located = await this.located(share);
      } catch {
        continue;
      }
      if (!isWithin(located.root, row)) continue;
      if (isExpired(located.settings, this.now())) {
        refusal = shareErrors.expired();
        continue;
      }
      return { owner: located.owner, row, open: { ...located, via: 'mount' } };
    }
    throw refusal;
  }
}
