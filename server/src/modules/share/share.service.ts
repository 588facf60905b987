import { randomBytes, timingSafeEqual } from 'node:crypto';
import fsp from 'node:fs/promises';
import {
  ErrorCode,
  SHARE_CODE_LENGTH,
  type GenerateShareBody,
  type PublicFileView,
  type ShareFacts,
  type ShareView,
  type Sharer,
} from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter, exists } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { FileRow, SortOrder, SortProp } from '../files/files.repo.ts';
import { prefixOf, type FilesService } from '../files/files.service.ts';
import {
  isExpired,
  operationsOf,
  ownSettings,
  publicPathOf,
  shareErrors,
  type LocatedShare,
  type OpenShare,
  type ShareAccess,
  type ShareCredentials,
} from './share-access.ts';
import type { ShareCodeThrottle } from './share-code-throttle.ts';
import type { ShareRow, ShareSort } from './share.repo.ts';

// share codes and generated addresses avoid look-alike characters (0/O, 1/l/I)
const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const ADDRESS_ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const ADDRESS_LENGTH = 8;
/** Text previews read at most this much of a file. */
export const TEXT_PREVIEW_BYTES = 2 * 1024 * 1024;

function randomText(alphabet: string, length: number): string {
  let out = '';
  // rejection sampling keeps every character equally likely
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 256 - (256 % alphabet.length)) out += alphabet[b % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** `yyyy-MM-dd HH:mm[:ss]` in server time, an ISO date, or epoch ms; null for permanent. */
export function parseExpiry(
  body: Pick<GenerateShareBody, 'expireDate' | 'expireDays'>,
  now: number,
): number | null {
  if (body.expireDays !== undefined) return now + body.expireDays * 86400_000;
  const value = body.expireDate;
  if (value === null || value === undefined || value === '') return null;
  let when: number;
  if (typeof value === 'number') when = value;
  else {
    const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
    when = m
      ? new Date(
          Number(m[1]),
          Number(m[2]) - 1,
          Number(m[3]),
          Number(m[4]),
          Number(m[5]),
          Number(m[6] ?? 0),
        ).getTime()
      : Date.parse(value);
  }
  if (!Number.isFinite(when))
    throw new AppError(ErrorCode.BAD_DATE, 'The expiry date must be yyyy-MM-dd HH:mm:ss');
  if (when <= now) throw badParameter('The expiry date must be in the future');
  return when;
}

export function toPublicView(root: FileRow, row: FileRow): PublicFileView {
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
  };
}

export interface ListOptions {
  pageIndex: number;
  pageSize: number;
  sortableProp?: SortProp;
  order?: SortOrder;
}

/** Shares as their owners manage them, and what visitors see of them. */
export class ShareService {
  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
    readonly access: ShareAccess,
    private readonly settings: SettingsService,
    private readonly throttle: ShareCodeThrottle,
    private readonly now: () => number = Date.now,
  ) {}

  private get repo() {
    return this.access.repo;
  }

  // ---- the owner's side ---------------------------------------------------------------------

  async view(share: ShareRow, file: FileRow): Promise<ShareView> {
    const { settings, parent } = file.trashId
      ? { settings: ownSettings(share), parent: null }
      : await this.access.effective(share, file);
    return {
      shareId: share.id,
      shortId: share.shortId,
      fileId: file.id,
      fileName: file.name,
      path: `${file.path}${file.name}`,
      isFolder: file.isFolder === 1,
      contentType: file.contentType,
      suffix: file.suffix,
      isPrivacy: settings.isPrivacy,
      extractionCode: settings.isPrivacy ? settings.code : null,
      expireDate: settings.expiresAt === null ? null : formatDateTime(settings.expiresAt),
      expiresAt: settings.expiresAt,
      expired: isExpired(settings, this.now()),
      allowDownload: settings.allowDownload,
      operationPermissionList: operationsOf(settings),
      views: Number(share.views),
      downloads: Number(share.downloads),
      createDate: formatDateTime(share.createdAt),
      subShare: parent !== null,
      shareBase: parent === null,
      parentShareId: parent?.id ?? null,
      inTrash: file.trashId !== null,
    };
  }

  private async freeAddress(): Promise<string> {
    for (;;) {
      const candidate = randomText(ADDRESS_ALPHABET, ADDRESS_LENGTH);
      if (!(await this.repo.shortIdTaken(candidate))) return candidate;
    }
  }

  /**
   * POST share/generate: share a file or folder, or change the settings of its share (one share
   * per file). Inside a shared folder it is a sub-share: the folder's settings apply to it.
   */
  async generate(actor: Actor, body: GenerateShareBody): Promise<ShareView> {
    requireAuthority(actor, 'cloud:file:share');
    const file = await this.files.mustFindLive(actor.id, body.fileId);
    const existing = await this.repo.byFile(actor.id, file.id);
    const now = this.now();

    const wanted = body.shortId?.trim() || null;
    if (wanted && (await this.repo.shortIdTaken(wanted, existing?.id)))
      throw exists('This address is already in use; choose another one');
    const shortId = wanted ?? existing?.shortId ?? (await this.freeAddress());

    const around = await this.repo.enclosing(actor.id, file.path);
    const outer = around[0]?.share;
    let values: Omit<
      ShareRow,
      'id' | 'shortId' | 'userId' | 'fileId' | 'views' | 'downloads' | 'createdAt' | 'updatedAt'
    >;
    if (outer) {
      // a sub-share keeps a copy of the folder's settings, used if it ever stands alone
      values = {
        isPrivacy: outer.isPrivacy,
        code: outer.code,
        expiresAt: outer.expiresAt,
        allowDownload: outer.allowDownload,
        canUpload: outer.canUpload,
        canEdit: outer.canEdit,
        canDelete: outer.canDelete,
      };
    } else {
      const isPrivacy = body.isPrivacy === true;
      const folder = file.isFolder === 1;
      const ops = new Set(isPrivacy && folder ? (body.operationPermissionList ?? []) : []);
      values = {
        isPrivacy: isPrivacy ? 1 : 0,
        code: isPrivacy
          ? (existing?.isPrivacy === 1 && existing.code) ||
            randomText(CODE_ALPHABET, SHARE_CODE_LENGTH)
          : null,
        expiresAt: parseExpiry(body, now),
        allowDownload: body.allowDownload === false ? 0 : 1,
        canUpload: ops.has('UPLOAD') ? 1 : 0,
        canEdit: ops.has('PUT') ? 1 : 0,
        canDelete: ops.has('DELETE') ? 1 : 0,
      };
    }
    if (existing) {
      await this.repo.update(existing.id, { ...values, shortId, updatedAt: now });
    } else {
      await this.repo.insert({
        id: newId(),
        shortId,
        userId: actor.id,
        fileId: file.id,
        ...values,
        views: 0,
        downloads: 0,
        createdAt: now,
        updatedAt: now,
      });
    }
    const saved = (await this.repo.byFile(actor.id, file.id))!;
    return this.view(saved, file);
  }

  private async ownShare(
    actor: Actor,
    shareId: string,
  ): Promise<{ share: ShareRow; file: FileRow }> {
    const share = await this.repo.byId(shareId);
    if (!share || share.userId !== actor.id) throw shareErrors.gone();
    const file = await this.files.mustFind(actor.id, share.fileId);
    return { share, file };
  }

  async get(actor: Actor, shareId: string): Promise<ShareView> {
    const { share, file } = await this.ownShare(actor, shareId);
    return this.view(share, file);
  }

  /** The share of a file, and the shared folder around it whose settings a new share would take. */
  async byFile(
    actor: Actor,
    fileId: string,
  ): Promise<{ share: ShareView | null; parent: ShareView | null }> {
    const file = await this.files.mustFind(actor.id, fileId);
    const share = await this.repo.byFile(actor.id, file.id);
    const outer = file.trashId ? undefined : (await this.repo.enclosing(actor.id, file.path))[0];
    return {
      share: share ? await this.view(share, file) : null,
      parent: outer ? await this.view(outer.share, outer.file) : null,
    };
  }

  /** Whether a folder holds shares of items below it (sharing it makes them sub-shares). */
  async folderHasShares(actor: Actor, fileId: string): Promise<boolean> {
    const file = await this.files.mustFindLive(actor.id, fileId);
    if (file.isFolder !== 1) return false;
    return (await this.repo.inside(actor.id, prefixOf(file))).length > 0;
  }

  /** Whether any of these shares is a folder holding other shares. */
  async hasSubShare(actor: Actor, shareIds: string[]): Promise<boolean> {
    for (const id of new Set(shareIds)) {
      const share = await this.repo.byId(id);
      if (!share || share.userId !== actor.id) continue;
      const file = await this.files.repo.live(actor.id, share.fileId);
      if (file?.isFolder === 1 && (await this.repo.inside(actor.id, prefixOf(file))).length > 0)
        return true;
    }
    return false;
  }

  async list(
    actor: Actor,
    p: {
      pageIndex: number;
      pageSize: number;
      sortableProp?: ShareSort;
      order?: 'ascending' | 'descending';
    },
  ): Promise<{ items: ShareView[]; total: number }> {
    const sort = p.sortableProp ?? 'createDate';
    const order = p.order ?? (sort === 'fileName' ? 'ascending' : 'descending');
    const { rows, total } = await this.repo.page(
      actor.id,
      sort,
      order === 'ascending' ? 'asc' : 'desc',
      (p.pageIndex - 1) * p.pageSize,
      p.pageSize,
    );
    const items: ShareView[] = [];
    for (const r of rows) items.push(await this.view(r.share, r.file));
    return { items, total };
  }

  /** DELETE share/cancel: the links stop working at once, with every token and mount of them. */
  async cancel(actor: Actor, shareIds: string[]): Promise<number> {
    const removed = await this.repo.remove(actor.id, [...new Set(shareIds)]);
    if (removed === 0) throw shareErrors.gone();
    return removed;
  }

  /** GET /share/generate/share-token: the owner's (or a mounter's) own token for a file's share. */
  async tokenFor(actor: Actor, fileId: string): Promise<string> {
    const share = await this.db
      .selectFrom('share')
      .selectAll()
      .where('fileId', '=', fileId)
      .executeTakeFirst();
    const isOwner = share?.userId === actor.id;
    if (!share || (!isOwner && !(await this.repo.mountOf(actor.id, share.id))))
      throw shareErrors.gone();
    return this.access.issueToken(await this.access.locate(share.id));
  }

  // ---- what visitors see --------------------------------------------------------------------

  async sharer(located: LocatedShare): Promise<Sharer> {
    const drive = await this.settings.drive();
    return {
      shareId: located.share.id,
      userId: located.owner.id,
      username: located.owner.username,
      showName: located.owner.showName,
      avatar: located.owner.avatar,
      netdiskName: drive.netdiskName,
      netdiskLogo: drive.netdiskLogo,
    };
  }

  async facts(
    located: LocatedShare,
    open: OpenShare | null,
    actor: Actor | null,
  ): Promise<ShareFacts> {
    const facts: ShareFacts = {
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
        avatar: located.owner.avatar,
      },
    };
    if (open) {
      facts.allowDownload = open.settings.allowDownload;
      facts.operationPermissionList = open.root.isFolder === 1 ? operationsOf(open.settings) : [];
      if (actor) {
        facts.mounted = (await this.repo.mountOf(actor.id, open.share.id)) !== undefined;
        facts.canMount = open.root.isFolder === 1 && actor.id !== open.owner.id;
      }
    }
    return facts;
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
      return { items: [toPublicView(open.root, open.root)], total: 1, facts };
    const { items, total } = await this.listFolder(open, open.root, options);
    return { items, total, facts };
  }

  async listFolder(
    open: LocatedShare,
    folder: FileRow,
    options: ListOptions,
  ): Promise<{ items: PublicFileView[]; total: number }> {
    if (folder.isFolder !== 1)
      throw new AppError(ErrorCode.DIRECTORY_NOT_FOUND, 'This is not a folder');
    const sortProp = options.sortableProp ?? 'name';
    const { rows, total } = await this.files.repo.list({
      userId: open.owner.id,
      parentId: folder.id,
      sortProp,
      order: options.order ?? (sortProp === 'name' ? 'ascending' : 'descending'),
      offset: (options.pageIndex - 1) * options.pageSize,
      limit: options.pageSize,
    });
    return { items: rows.map((r) => toPublicView(open.root, r)), total };
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
    await this.throttle.assertAllowed(located.share.id, ip);
    const expected = located.settings.code ?? '';
    const given = code.trim().toLowerCase();
    const a = Buffer.from(given);
    const b = Buffer.from(expected.toLowerCase());
    if (!expected || a.length !== b.length || !timingSafeEqual(a, b)) {
      await this.throttle.recordFailure(located.share.id, ip);
      throw shareErrors.wrongCode();
    }
    await this.throttle.recordSuccess(located.share.id, ip);
    return { token: await this.access.issueToken(located), located };
  }

  /** The first bytes of a shared text file, as UTF-8. */
  async previewText(open: OpenShare, row: FileRow): Promise<PublicFileView> {
    if (row.isFolder === 1) throw new AppError(ErrorCode.FILE_NOT_FOUND, 'A folder has no text');
    const view = toPublicView(open.root, row);
    const disk = this.files.diskPathOf(open.owner, row);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(disk, 'r');
    } catch {
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file is missing on disk');
    }
    try {
      const buffer = Buffer.alloc(Math.min(TEXT_PREVIEW_BYTES, Math.max(0, row.size)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      view.contentText = new TextDecoder('utf-8').decode(buffer.subarray(0, bytesRead), {
        stream: row.size > TEXT_PREVIEW_BYTES,
      });
      view.truncated = row.size > TEXT_PREVIEW_BYTES;
    } finally {
      await handle.close();
    }
    return view;
  }

  countDownload(open: LocatedShare): Promise<void> {
    return this.repo.countDownload(open.share.id);
  }
}
