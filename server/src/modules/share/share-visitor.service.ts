import type { StoredBytes } from '../files/file-serve.ts';
import type { Readable } from 'node:stream';
import {
  ErrorCode,
  SHARE_VISITOR_OPERATOR,
  type ChunkParams,
  type MergeParams,
  type PublicFileView,
} from '@nimbus/contract';
import type { Actor } from '../../lib/access.ts';
import { AppError, badParameter } from '../../lib/errors.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { bytesGrant, previewOnlyOf, requireDownload } from '../files/bytes-grant.ts';
import { zipEntriesOf } from '../files/download.service.ts';
import type { FileOperations } from '../files/file-ops.service.ts';
import type { FileRow, FilesService } from '../files/files.service.ts';
import { checkName } from '../files/names.ts';
import type { TrashService } from '../files/trash.service.ts';
import type { UploadPolicy, UploadService } from '../upload/upload.service.ts';
import {
  isWithin,
  shareErrors,
  type OpenShare,
  type ShareAction,
  type ShareAccess,
  type ShareCredentials,
  type ShareTarget,
} from './share-access.ts';
import { toPublicView } from './share-browse.service.ts';
import type { FilesRepo } from '../files/files.repo.ts';

/** Who is asking: the share's credentials and the visitor's address. */
export interface Visitor {
  creds: ShareCredentials;
  address: string;
}

/** A file's bytes a visitor may fetch: where they are and how they may be shown. */
export interface SharedBytes extends StoredBytes {
  row: FileRow;
  /** Without downloads, only what a preview shows, and only inline. */
  previewOnly?: () => AppError;
}

/**
 * What visitors of a share (and mounters, through the same gate) do: browse it, fetch its
 * bytes, and change it within the share's permissions, acting as its owner. Every access check
 * of the public share routes lives here.
 */
export class ShareVisitorService {
  constructor(
    private readonly access: ShareAccess,
    private readonly uploads: UploadService,
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    private readonly fileOps: FileOperations,
    private readonly trash: TrashService,
    private readonly auth: AuthService,
  ) {}

  // ---- fetching bytes -------------------------------------------------------------------------

  /**
   * The bytes of a shared file. A download needs the download permission and counts once (a
   * resumed range or a HEAD does not count again). Thumbnails are the images module's.
   */
  async bytes(
    creds: ShareCredentials,
    target: ShareTarget,
    how: { download: boolean; fresh: boolean },
  ): Promise<SharedBytes> {
    const { open: share, row } = await this.access.access(creds, target);
    if (row.isFolder === 1)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'A folder has no bytes; download it as a zip');
    const grant = bytesGrant(creds.actor, share);
    if (how.download) {
      requireDownload(grant);
      if (how.fresh) await this.access.repo.countDownload(share.share.id);
    }
    return {
      blobs: this.files.blobs,
      place: this.files.placeOf(share.owner, row),
      row,
      previewOnly: previewOnlyOf(grant),
    };
  }

  /** The bytes a file URL carrying its own share token names: `/share-file/{id}/{token}/{name}`. */
  async bytesByToken(
    token: string,
    actor: Actor | null,
    fileId: string,
    how: { download: boolean; fresh: boolean },
  ): Promise<SharedBytes> {
    const claims = await this.access.tokens.verify(token);
    if (!claims) throw shareErrors.codeRequired();
    return this.bytes({ share: claims.shareId, token, actor }, { fileId }, how);
  }

  /** Chosen files of the share as one zip: its name and its entries. */
  async zip(creds: ShareCredentials, fileIds: string[]) {
    const share = await this.access.open(creds);
    requireDownload(bytesGrant(creds.actor, share));
    const ids = [...new Set(fileIds)];
    if (ids.length === 0) throw badParameter('Choose at least one file');
    const rows: FileRow[] = [];
    for (const fileId of ids) rows.push(await this.access.resolve(share, { fileId }));
    await this.access.repo.countDownload(share.share.id);
    const name = rows.length === 1 ? `${rows[0]!.name}.zip` : `${share.root.name}.zip`;
    return { name, entries: zipEntriesOf(this.files, share.owner, rows) };
  }

  // ---- changes by visitors, within the share's permissions ------------------------------------

  /** The owner, acting for a visitor: the owner's grants and quota apply. */
  private async ownerActor(share: OpenShare): Promise<Actor> {
    const actor = await this.auth.actorFor(share.owner.id);
    if (!actor) throw shareErrors.gone();
    return actor;
  }

  // visitor uploads never complete from the owner's other files (that would reveal them),
  // replace a same-named file only with the edit permission, and reserve bounded space per
  // share and address (the owner uploading through their own share is no visitor)
  private policyOf(share: OpenShare, visitor?: Visitor): UploadPolicy {
    if (share.via === 'owner') return { instantCopy: false, replace: share.settings.canEdit };
    return {
      instantCopy: false,
      replace: share.settings.canEdit,
      ...(visitor ? { visitor: { shareId: share.share.id, address: visitor.address } } : {}),
      // a replaced document's version names who replaced it: the signed-in visitor, or the link
      operator: visitor?.creds.actor?.username ?? `${SHARE_VISITOR_OPERATOR}${share.share.shortId}`,
    };
  }

  private async uploadGate(creds: ShareCredentials): Promise<OpenShare> {
    const share = await this.access.open(creds);
    this.access.require(share, 'upload');
    return share;
  }

  /** Chunk fields with the folder made absolute inside the share. */
  private ownerParams<T extends { currentDirectory?: string }>(share: OpenShare, p: T): T {
    return { ...p, currentDirectory: this.access.ownerFolderPath(share, p.currentDirectory) };
  }

  /** Refuse before any byte is sent when the upload would have to replace a file. */
  private async assertPlaceable(share: OpenShare, p: ChunkParams): Promise<void> {
    if (share.settings.canEdit) return;
    const segments = this.uploads.targetSegments(p);
    const folder = await this.files
      .resolveFolder(share.owner.id, `/${segments.join('/')}`)
      .catch(() => null);
    if (
      folder &&
      (await this.fileRows.childNamed(share.owner.id, folder.id, checkName(p.filename)))
    )
      throw new AppError(ErrorCode.EXISTS, `"${p.filename}" already exists in this share`);
  }

  private async publicFile(
    share: OpenShare,
    id: string | undefined,
  ): Promise<PublicFileView | undefined> {
    if (!id) return undefined;
    const row = await this.fileRows.live(share.owner.id, id);
    return row && isWithin(share.root, row) ? toPublicView(share, row) : undefined;
  }

  async checkExist(creds: ShareCredentials, filenames: string[], currentDirectory?: string) {
    const share = await this.uploadGate(creds);
    const exist = await this.uploads.checkExist(
      await this.ownerActor(share),
      filenames,
      this.access.ownerFolderPath(share, currentDirectory),
    );
    return {
      exist,
      replace: share.settings.canEdit,
      pass: false,
      resume: [],
      upload: false,
      merge: false,
    };
  }

  async testChunk(visitor: Visitor, p: ChunkParams) {
    const share = await this.uploadGate(visitor.creds);
    const params = this.ownerParams(share, p);
    await this.assertPlaceable(share, params);
    const { file, ...result } = await this.uploads.test(
      await this.ownerActor(share),
      params,
      this.policyOf(share, visitor),
    );
    return { ...result, file: await this.publicFile(share, file?.id) };
  }

  /** Opens the gate before the chunk's bytes are read; `receive` reads them and calls back. */
  async writeChunk<R>(
    visitor: Visitor,
    receive: (
      write: (p: ChunkParams, bytes: Readable) => Promise<{ upload: boolean; merge: boolean }>,
    ) => Promise<R>,
  ): Promise<R> {
    const share = await this.uploadGate(visitor.creds);
    return receive(async (p, bytes) => {
      const absolute = this.ownerParams(share, p);
      await this.assertPlaceable(share, absolute);
      return this.uploads.writeChunk(
        await this.ownerActor(share),
        absolute,
        bytes,
        this.policyOf(share, visitor),
      );
    });
  }

  async merge(visitor: Visitor, p: MergeParams) {
    const share = await this.uploadGate(visitor.creds);
    const outcome = await this.uploads.merge(
      await this.ownerActor(share),
      this.ownerParams(share, p),
      this.policyOf(share, visitor),
    );
    if (outcome.merging)
      return { upload: true as const, merging: true as const, progress: outcome.progress };
    return { upload: true as const, file: await this.publicFile(share, outcome.file.id) };
  }

  async uploadFolder(
    creds: ShareCredentials,
    p: { filename: string; folderPath?: string; currentDirectory?: string },
  ) {
    const share = await this.uploadGate(creds);
    const view = await this.uploads.createFolder(
      await this.ownerActor(share),
      this.ownerParams(share, p),
    );
    return this.publicFile(share, view.id);
  }

  async newFolder(creds: ShareCredentials, currentDirectory: string | undefined, name: string) {
    const share = await this.uploadGate(creds);
    const view = await this.files.newFolder(
      await this.ownerActor(share),
      this.access.ownerFolderPath(share, currentDirectory),
      name,
    );
    return this.publicFile(share, view.id);
  }

  async rename(creds: ShareCredentials, target: ShareTarget, newName: string) {
    const { open: share, row } = await this.access.access(creds, target);
    this.access.require(share, 'edit');
    if (row.id === share.root.id)
      throw new AppError(ErrorCode.PERMISSION_DENIED, 'The shared folder itself cannot be renamed');
    const view = await this.fileOps.rename(await this.ownerActor(share), row.id, newName);
    return this.publicFile(share, view.id);
  }

  async remove(creds: ShareCredentials, fileIds: string[]): Promise<void> {
    const share = await this.access.open(creds);
    this.access.require(share, 'delete');
    const ids = [...new Set(fileIds)];
    if (ids.length === 0) throw badParameter('Choose at least one file');
    for (const fileId of ids) {
      const row = await this.access.resolve(share, { fileId });
      if (row.id === share.root.id)
        throw new AppError(
          ErrorCode.PERMISSION_DENIED,
          'The shared folder itself cannot be deleted',
        );
    }
    await this.trash.trash(await this.ownerActor(share), ids);
  }

  // ---- changes by mounters over WebDAV, within the same permissions ---------------------------

  /**
   * The owner acting for a change the share grants (a mounter's WebDAV move, copy or property),
   * refused naming the permission when it does not: the owner's grants, quota and trash apply.
   */
  async actFor(
    creds: ShareCredentials,
    action: Exclude<ShareAction, 'download'>,
  ): Promise<{ share: OpenShare; owner: Actor }> {
    const share = await this.access.open(creds);
    this.access.require(share, action);
    return { share, owner: await this.ownerActor(share) };
  }

  /**
   * A file written in one piece into the share (a mounter's WebDAV PUT), with the rules of the
   * share page's uploads: the upload permission, and the edit permission to replace a file; a
   * replaced document's version names the mounter.
   */
  async fileWriter(creds: ShareCredentials): Promise<FileWriter> {
    const share = await this.uploadGate(creds);
    const owner = await this.ownerActor(share);
    const policy = this.policyOf(share, { creds, address: '' });
    return {
      owner,
      operator: policy.operator ?? owner.username,
      mayReplace: () => {
        if (!policy.replace) throw shareErrors.notAllowed('edit');
      },
    };
  }
}

/** Who writes a file into a tree, and whether they may write over one already there. */
export interface FileWriter {
  owner: Actor;
  /** Who a replaced document's version says replaced it. */
  operator: string;
  /** Throws when a file of that name may not be replaced. */
  mayReplace: () => void;
}
