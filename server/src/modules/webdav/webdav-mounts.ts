import { AppError } from '../../lib/errors.ts';
import { prefixOf, ROOT_ID } from '../files/files.service.ts';
import type { OpenShare, ShareAccess } from '../share/share-access.ts';
import type { MountRow } from '../share/share.repo.ts';
import { isWithin } from './webdav-headers.ts';
import type { DavItem } from './webdav-item.ts';
import type { FilesRepo } from '../files/files.repo.ts';

/** A mount of the user's with its place in their tree, `/a/b/name`. */
interface PlacedMount {
  mount: MountRow;
  at: string;
}

/** A path inside a mount, the share opened for a change: `rest` is its path in the share. */
export interface MountedTree {
  placed: PlacedMount;
  open: OpenShare;
  /** `''` for the mount itself, else `/a/b` below the shared folder. */
  rest: string;
}

/**
 * The shares a user mounted, as places in their WebDAV tree: each found and opened through the
 * share module's own gate (`ShareAccess`), whose rules hold on every path.
 */
export class DavMounts {
  constructor(
    private readonly fileRows: FilesRepo,
    private readonly shares: ShareAccess,
  ) {}

  /**
   * An item inside a share the user mounted: the share opened through the mount and the rest
   * of the path found in it by the share module's own gate (`ShareAccess.resolve`), so a
   * revoked or expired share, or an unmounted one, is not found.
   */
  async find(userId: string, path: string): Promise<DavItem | null> {
    const placed = await this.mountAround(userId, path);
    if (!placed) return null;
    const open = await this.opened(placed.mount);
    if (!open) return null;
    const rest = path.slice(placed.at.length);
    if (rest === '')
      return {
        kind: 'row',
        path,
        row: { ...open.root, name: placed.mount.name },
        mount: { id: placed.mount.id, open, isRoot: true },
      };
    try {
      const row = await this.shares.resolve(open, { path: rest });
      return { kind: 'row', path, row, mount: { id: placed.mount.id, open, isRoot: false } };
    } catch (err) {
      if (err instanceof AppError) return null;
      throw err;
    }
  }

  /** The share a mount places, open, or null when it is gone or expired. */
  private async opened(mount: MountRow): Promise<OpenShare | null> {
    try {
      return await this.shares.openMount(mount);
    } catch (err) {
      if (err instanceof AppError) return null;
      throw err;
    }
  }

  /** The user's mounts with their places (a mount in a folder that is gone has none). */
  private async placedMounts(userId: string): Promise<PlacedMount[]> {
    const out: PlacedMount[] = [];
    for (const mount of await this.shares.repo.mountsOf(userId)) {
      let prefix = '/';
      if (mount.parentId !== ROOT_ID) {
        const parent = await this.fileRows.live(userId, mount.parentId);
        if (!parent?.isFolder) continue;
        prefix = prefixOf(parent);
      }
      out.push({ mount, at: `${prefix}${mount.name}` });
    }
    return out;
  }

  /** The mount a path is, or lies inside of. */
  private async mountAround(userId: string, path: string): Promise<PlacedMount | null> {
    const mounts = await this.placedMounts(userId);
    return mounts.find((m) => isWithin(path, m.at)) ?? null;
  }

  /**
   * The mount a change at `path` lands in, its share opened now: a share cancelled or expired
   * since the client looked refuses the change (404, 403); null in the user's own tree.
   */
  async treeAt(userId: string, path: string): Promise<MountedTree | null> {
    const placed = path === '/' ? null : await this.mountAround(userId, path);
    if (!placed) return null;
    const open = await this.shares.openMount(placed.mount);
    return { placed, open, rest: path.slice(placed.at.length) };
  }

  /** The mounts placed in a folder, open (none inside a mounted share: those are its owner's). */
  async placedIn(userId: string, folder: DavItem): Promise<DavItem[]> {
    if (folder.kind === 'row' && folder.mount) return [];
    const parentId = folder.kind === 'root' ? ROOT_ID : folder.row.id;
    const base = folder.path === '/' ? '/' : `${folder.path}/`;
    const out: DavItem[] = [];
    for (const mount of await this.shares.repo.mountsOf(userId)) {
      if (mount.parentId !== parentId) continue;
      const open = await this.opened(mount);
      if (!open) continue;
      out.push({
        kind: 'row',
        path: `${base}${mount.name}`,
        row: { ...open.root, name: mount.name },
        mount: { id: mount.id, open, isRoot: true },
      });
    }
    return out;
  }
}
