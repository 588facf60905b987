import { ErrorCode, type MountView } from '@nimbus/contract';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter, exists } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time.ts';
import { ROOT_ID } from '../files/files.service.ts';
import { prefixOf, type FilesService } from '../files/files.service.ts';
import { bytesGrant } from '../files/bytes-grant.ts';
import { checkName } from '../files/names.ts';
import {
  isExpired,
  operationsOf,
  publicPathOf,
  type LocatedShare,
  type ShareAccess,
} from './share-access.ts';
import type { MountRow } from './share.repo.ts';
import type { FilesRepo } from '../files/files.repo.ts';

/**
 * Mounts: a signed-in user places someone's shared folder into their own drive. The files stay
 * the owner's; the mounter reaches them through the share, with its permissions, for as long as
 * the share lives.
 */
export class MountService {
  constructor(
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    private readonly access: ShareAccess,
    private readonly now: () => number = Date.now,
  ) {}

  private get repo() {
    return this.access.repo;
  }

  /** PUT /share/mount-folder: not one's own share, not twice, not over a taken name. */
  async mount(
    actor: Actor,
    input: { shareId: string; fileId: string; name?: string; token?: string | null },
  ): Promise<MountView> {
    requireAuthority(actor, 'cloud:file:upload');
    const open = await this.access.open({ share: input.shareId, token: input.token, actor });
    if (open.root.isFolder !== 1) throw badParameter('Only shared folders can be mounted');
    if (open.owner.id === actor.id)
      throw badParameter('This is your own share; it is already in your drive');
    if (await this.repo.mountOf(actor.id, open.share.id))
      throw exists('You have already mounted this share');
    const name = checkName(input.name?.trim() || open.root.name);
    const parent = await this.files.folderById(actor.id, input.fileId || ROOT_ID);
    if (
      (await this.fileRows.childNamed(actor.id, parent.id, name)) ||
      (await this.fileRows.mountNamed(actor.id, parent.id, name))
    )
      throw exists(`"${name}" already exists in that folder; choose another name`);
    const row: MountRow = {
      id: newId(),
      userId: actor.id,
      shareId: open.share.id,
      parentId: parent.id,
      name,
      createdAt: this.now(),
    };
    await this.repo.insertMount(row);
    return this.view(actor, row, open);
  }

  private async view(actor: Actor, mount: MountRow, located: LocatedShare): Promise<MountView> {
    let path = '/';
    if (mount.parentId !== ROOT_ID) {
      const parent = await this.fileRows.live(actor.id, mount.parentId);
      if (parent) path = prefixOf(parent);
    }
    return {
      mountId: mount.id,
      shareId: located.share.id,
      id: located.root.id,
      name: mount.name,
      parentId: mount.parentId,
      path,
      isFolder: true,
      fileUsername: located.owner.username,
      fileShowName: located.owner.showName,
      operationPermissionList: operationsOf(located.settings),
      allowDownload: bytesGrant(actor, { ...located, via: 'mount' }).download,
      expireDate:
        located.settings.expiresAt === null ? null : formatDateTime(located.settings.expiresAt),
      expired: isExpired(located.settings, this.now()),
      createDate: formatDateTime(mount.createdAt),
      updateDate: formatDateTime(located.root.updateDate),
      type: 'folder',
      size: 0,
      childrenCount: located.root.childrenCount,
      isMount: true,
    };
  }

  /** The /mount view: every mount whose share is still there. */
  async list(actor: Actor): Promise<MountView[]> {
    const out: MountView[] = [];
    for (const mount of await this.repo.mountsOf(actor.id)) {
      const located = await this.locateIgnoringExpiry(mount.shareId);
      if (located) out.push(await this.view(actor, mount, located));
    }
    return out;
  }

  /** An expired share still shows in the list, marked expired; opening it says why. */
  private async locateIgnoringExpiry(shareId: string): Promise<LocatedShare | null> {
    try {
      return await this.access.locateAny(shareId);
    } catch {
      return null;
    }
  }

  async unmount(actor: Actor, mountId: string): Promise<void> {
    if ((await this.repo.removeMount(actor.id, mountId)) === 0)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'This mount does not exist');
  }

  /** GET /mount/file_info: where a mounted file lives in the mounter's drive. */
  async fileInfo(
    actor: Actor,
    fileId: string,
  ): Promise<{ path: string; folder: string; mountId: string; shareId: string }> {
    const { row, open } = await this.access.fileForActor(actor, fileId);
    if (!open) throw new AppError(ErrorCode.FILE_NOT_FOUND, 'This file is not in a mounted folder');
    const mount = (await this.repo.mountOf(actor.id, open.share.id))!;
    const base = (await this.view(actor, mount, open)).path;
    const inner = row.id === open.root.id ? '' : publicPathOf(open.root, row).slice(1);
    return {
      path: `${base}${mount.name}/${inner}`,
      folder: row.id === open.root.id ? open.root.id : row.parentId,
      mountId: mount.id,
      shareId: open.share.id,
    };
  }

  /** GET /mount/folder/id: the id of a folder at a path inside a mounted folder. */
  async folderId(actor: Actor, otherFileId: string, path: string | undefined): Promise<string> {
    const { open } = await this.access.fileForActor(actor, otherFileId);
    if (!open) throw new AppError(ErrorCode.DIRECTORY_NOT_FOUND, 'This folder is not mounted');
    const row = await this.access.resolve(open, { path });
    if (row.isFolder !== 1)
      throw new AppError(ErrorCode.DIRECTORY_NOT_FOUND, 'This is not a folder');
    return row.id;
  }
}
