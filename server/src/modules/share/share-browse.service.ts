import { timingSafeEqual } from 'node:crypto';
import { ErrorCode, type PublicFileView, type ShareFacts, type Sharer } from '@nimbus/contract';
import type { Actor } from '../../lib/access.ts';
import { CHARSET_SAMPLE_BYTES, decodeSample, detectCharset } from '../../lib/charset.ts';
import { AppError } from '../../lib/errors.ts';
import { formatDateTime } from '../../lib/time.ts';
import { bytesGrant } from '../files/bytes-grant.ts';
import { TEXT_PREVIEW_BYTES } from '../files/file-serve.ts';
import { isTextSuffix } from '../files/file-types.ts';
import type { FileRow, FilesService, SortOrder, SortProp } from '../files/files.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import {
  operationsOf,
  publicPathOf,
  shareErrors,
  type LocatedShare,
  type OpenShare,
  type ShareAccess,
  type ShareCredentials,
  type ShareTarget,
} from './share-access.ts';
import type { ShareCodeThrottle } from './share-code-throttle.ts';
import type { FolderListingRepo } from '../files/folder-listing.repo.ts';

/**
 * A file or folder of a share as its visitors see it. Each carries the share's privacy and what
 * visitors may do besides reading, as the original's items did: its client keeps the visitor's
 * share token and offers uploads by these.
 */
export function toPublicView(
  share: Pick<LocatedShare, 'root' | 'settings'>,
  row: FileRow,
): PublicFileView {
  const { root, settings } = share;
  return {
    id: row.id,
    name: row.name,
    path: publicPathOf(root, row),
    isFolder: row.isFolder === 1,
    size: row.size,
    contentType: row.contentType,
    suffix: row.suffix,
    type: row.fileType,
    uploadDate: formatDateTime(row.uploadDate),
    updateDate: formatDateTime(row.updateDate),
    childrenCount: row.childrenCount,
    isPrivacy: settings.isPrivacy,
    operationPermissionList: root.isFolder === 1 ? operationsOf(settings) : [],
  };
}

export interface ListOptions {
  pageIndex: number;
  pageSize: number;
  sortableProp?: SortProp;
  order?: SortOrder;
}

/**
 * Opening a share and reading it, as its visitors (and mounters) do: the code that earns a
 * token, the facts of the share, its folders, its items and the text of its text files. Every
 * request passes the one gate of `ShareAccess` first.
 */
export class ShareBrowseService {
  constructor(
    private readonly files: FilesService,
    private readonly folderListing: FolderListingRepo,
    private readonly access: ShareAccess,
    private readonly settings: SettingsService,
    private readonly throttle: ShareCodeThrottle,
  ) {}

  private get repo() {
    return this.access.repo;
  }

  /** POST public/valid-share-code: the right code earns a share token. */
  async validCode(
    address: string,
    code: string,
    ip: string,
  ): Promise<{ token: string; located: LocatedShare }> {
    const located = await this.access.locate(address);
    if (!located.settings.isPrivacy)
      return { token: await this.access.issueToken(located), located };
    const expected = located.settings.code ?? '';
    const a = Buffer.from(code.trim().toLowerCase());
    const b = Buffer.from(expected.toLowerCase());
    // the guess is counted before it is compared, so parallel guesses cannot slip past the limit
    const right = await this.throttle.check(
      located.share.id,
      ip,
      () => !!expected && a.length === b.length && timingSafeEqual(a, b),
    );
    if (!right) throw shareErrors.wrongCode();
    return { token: await this.access.issueToken(located), located };
  }

  /** GET public/sharer: who shares, and the drive it is shared from. */
  async sharer(address: string): Promise<Sharer> {
    const located = await this.access.locate(address);
    const drive = await this.settings.drive();
    return {
      shareId: located.share.id,
      userId: located.owner.id,
      username: located.owner.username,
      showName: located.owner.showName,
      ...(located.owner.avatar ? { avatar: located.owner.avatar } : {}),
      netdiskName: drive.netdiskName,
      ...(drive.netdiskLogo ? { netdiskLogo: drive.netdiskLogo } : {}),
    };
  }

  /**
   * GET public/access-share: the shared file, or the shared folder's items. A private share not
   * yet open to this visitor answers with its public facts only.
   */
  async accessShare(
    creds: ShareCredentials,
    options: ListOptions,
  ): Promise<{ items: PublicFileView[] | null; total: number; facts: ShareFacts }> {
    const located = await this.access.locate(creds.share);
    const via = await this.access.openedVia(located, creds);
    if (!via) return { items: null, total: 0, facts: await this.facts(located, null, creds.actor) };
    const open: OpenShare = { ...located, via };
    if (options.pageIndex === 1 && via !== 'owner') await this.repo.countView(open.share.id);
    const facts = await this.facts(located, open, creds.actor);
    if (open.root.isFolder !== 1)
      return { items: [toPublicView(open, open.root)], total: 1, facts };
    const { items, total } = await this.listFolder(open, open.root, options);
    return { items, total, facts };
  }

  /** A folder of the share, and the folder itself as the visitor sees it. */
  async openFolder(creds: ShareCredentials, target: ShareTarget, options: ListOptions) {
    const { open, row } = await this.access.access(creds, target);
    const { items, total } = await this.listFolder(open, row, options);
    return { items, total, folder: toPublicView(open, row) };
  }

  async fileInfo(creds: ShareCredentials, target: ShareTarget): Promise<PublicFileView> {
    const { open, row } = await this.access.access(creds, target);
    return toPublicView(open, row);
  }

  /** The first bytes of a shared text file, as UTF-8. */
  async previewText(creds: ShareCredentials, target: ShareTarget): Promise<PublicFileView> {
    const { open, row } = await this.access.access(creds, target);
    if (row.isFolder === 1) throw new AppError(ErrorCode.FILE_NOT_FOUND, 'A folder has no text');
    // without downloads, the text preview is for text: it is no way to read other files
    const grant = bytesGrant(creds.actor, open);
    if (!grant.download && !isTextSuffix(row.suffix) && !row.contentType.startsWith('text/'))
      throw grant.refusePreview();
    const view = toPublicView(open, row);
    let head: Buffer;
    try {
      head = await this.files.blobs.readHead(
        this.files.placeOf(open.owner, row),
        Math.min(TEXT_PREVIEW_BYTES, Math.max(0, row.size)),
      );
    } catch {
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file is missing on disk');
    }
    // read in the file's own charset (a GB18030 or Shift_JIS text shows as written)
    const sample = head.subarray(0, CHARSET_SAMPLE_BYTES);
    const charset = detectCharset(sample, sample.length < row.size);
    view.contentText = decodeSample(head, charset, row.size > head.length);
    view.truncated = row.size > TEXT_PREVIEW_BYTES;
    return view;
  }

  private async facts(
    located: LocatedShare,
    open: OpenShare | null,
    actor: Actor | null,
  ): Promise<ShareFacts> {
    const facts: ShareFacts = {
      // the share's own id, as the original's placeholder gave: nothing of what it holds
      id: located.share.id,
      shareId: located.share.id,
      shortId: located.share.shortId,
      fileName: located.root.name,
      isFolder: located.root.isFolder === 1,
      isPrivacy: located.settings.isPrivacy,
      expireDate:
        located.settings.expiresAt === null ? null : formatDateTime(located.settings.expiresAt),
      expiresAt: located.settings.expiresAt,
      needCode: open === null,
      sharer: {
        username: located.owner.username,
        showName: located.owner.showName,
        ...(located.owner.avatar ? { avatar: located.owner.avatar } : {}),
      },
    };
    if (open) {
      facts.allowDownload = bytesGrant(actor, open).download;
      facts.operationPermissionList = open.root.isFolder === 1 ? operationsOf(open.settings) : [];
      if (actor) {
        facts.mounted = (await this.repo.mountOf(actor.id, open.share.id)) !== undefined;
        facts.canMount = open.root.isFolder === 1 && actor.id !== open.owner.id;
      }
    }
    return facts;
  }

  private async listFolder(
    open: LocatedShare,
    folder: FileRow,
    options: ListOptions,
  ): Promise<{ items: PublicFileView[]; total: number }> {
    if (folder.isFolder !== 1)
      throw new AppError(ErrorCode.DIRECTORY_NOT_FOUND, 'This is not a folder');
    const sortProp = options.sortableProp ?? 'name';
    const { rows, total } = await this.folderListing.list({
      userId: open.owner.id,
      parentId: folder.id,
      sortProp,
      order: options.order ?? (sortProp === 'name' ? 'ascending' : 'descending'),
      offset: (options.pageIndex - 1) * options.pageSize,
      limit: options.pageSize,
    });
    return { items: rows.map((r) => toPublicView(open, r)), total };
  }
}
