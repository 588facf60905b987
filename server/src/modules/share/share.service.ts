import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  ErrorCode,
  SHARE_CODE_LENGTH,
  type GenerateShareBody,
  type PublicFileView,
  type ShareFacts,
  type ShareView,
  type Sharer,
} from '@nimbus/contract';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter, exists } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { FileRow, SortOrder, SortProp } from '../files/files.service.ts';
import { isTextSuffix } from '../files/file-types.ts';
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
import { codeFingerprint } from './share-token.ts';
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

/** The last moment a `yyyy-MM-dd HH:mm:ss` date can show: 9999-12-31 23:59:59 server time. */
const LAST_SHOWABLE = new Date(9999, 11, 31, 23, 59, 59, 999).getTime();

const badDate = () =>
  new AppError(
    ErrorCode.BAD_DATE,
    'The expiry date must be a real date: yyyy-MM-dd HH:mm:ss (server time), ISO 8601, or epoch milliseconds',
  );

/**
 * A written date, strictly: `yyyy-MM-dd`, `yyyy-MM-dd HH:mm[:ss]` (or with `T`) in server
 * time, or ISO 8601 with fractions and a zone (`Z`, `±HH:mm`). Every part must exist as
 * written: `2999-02-30` or `25:61:61` are refused, never rolled over into another date.
 */
export function parseDateText(text: string): number | null {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(
      text.trim(),
    );
  if (!m) return null;
  const part = (i: number) => Number(m[i] ?? 0);
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map(part) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Number((m[7] ?? '0').padEnd(3, '0'));
  const zone = m[8];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  // the day must exist in that month (the round trip of the parts)
  const probe = new Date(Date.UTC(2000, 0, 1));
  probe.setUTCFullYear(year, month - 1, day);
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  if (zone === undefined) {
    const local = new Date(2000, 0, 1);
    local.setFullYear(year, month - 1, day);
    local.setHours(hour, minute, second, ms);
    return local.getTime();
  }
  let offset = 0;
  if (zone !== 'Z') {
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(4, 6));
    if (zh > 23 || zm > 59) return null;
    offset = (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm) * 60_000;
  }
  probe.setUTCHours(hour, minute, second, ms);
  return probe.getTime() - offset;
}

/** `yyyy-MM-dd HH:mm[:ss]` in server time, an ISO date, or epoch ms; null for permanent. */
export function parseExpiry(
  body: Pick<GenerateShareBody, 'expireDate' | 'expireDays'>,
  now: number,
): number | null {
  if (body.expireDays !== undefined) return now + body.expireDays * 86400_000;
  const value = body.expireDate;
  if (value === null || value === undefined || value === '') return null;
  const when = typeof value === 'number' ? value : parseDateText(value);
  // a date that cannot be shown as yyyy-MM-dd HH:mm:ss is no date either
  if (when === null || !Number.isSafeInteger(when) || Math.abs(when) > LAST_SHOWABLE)
    throw badDate();
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
      const affected = [existing, ...(await this.sharesInside(actor.id, file))];
      const before = await this.codesOf(affected);
      await this.repo.update(existing.id, { ...values, shortId, updatedAt: now });
      await this.dropMountsOnNewCode(affected, before);
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
      const file = await this.files.liveRow(actor.id, share.fileId);
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
    const ids = [...new Set(shareIds)];
    // shares inside a cancelled folder share fall back on their own settings
    const inside: ShareRow[] = [];
    for (const id of ids) {
      const share = await this.repo.byId(id);
      if (!share || share.userId !== actor.id) continue;
      const file = await this.files.liveRow(actor.id, share.fileId);
      if (file) inside.push(...(await this.sharesInside(actor.id, file)));
    }
    const affected = inside.filter((s) => !ids.includes(s.id));
    const before = await this.codesOf(affected);
    const removed = await this.repo.remove(actor.id, ids);
    if (removed === 0) throw shareErrors.gone();
    await this.dropMountsOnNewCode(affected, before);
    return removed;
  }

  /** The shares of items below a folder, which take its settings while it is shared. */
  private async sharesInside(userId: string, file: FileRow): Promise<ShareRow[]> {
    return file.isFolder === 1 ? this.repo.inside(userId, prefixOf(file)) : [];
  }

  /** The fingerprint of the code in force for each share (that of a public share is empty). */
  private async codesOf(shares: ShareRow[]): Promise<Map<string, string>> {
    const codes = new Map<string, string>();
    for (const share of shares) {
      const root = await this.files.liveRow(share.userId, share.fileId);
      if (!root) continue;
      const fresh = (await this.repo.byId(share.id)) ?? share;
      const { settings } = await this.access.effective(fresh, root);
      codes.set(share.id, settings.isPrivacy ? codeFingerprint(share.id, settings.code) : '');
    }
    return codes;
  }

  /**
   * A mount opens a private share without its code. When the code in force changes (a new code,
   * or a public share made private), the mounters never learnt it: their mounts are removed and
   * they are asked for the code like any visitor. A share made public keeps its mounts.
   */
  private async dropMountsOnNewCode(shares: ShareRow[], before: Map<string, string>) {
    const after = await this.codesOf(shares);
    const changed = [...after]
      .filter(([id, code]) => code !== '' && before.has(id) && before.get(id) !== code)
      .map(([id]) => id);
    await this.repo.removeMountsOf(changed);
  }

  /** GET /share/generate/share-token: the owner's (or a mounter's) own token for a file's share. */
  async tokenFor(actor: Actor, fileId: string): Promise<string> {
    const share = await this.repo.ofFile(fileId);
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
    const { rows, total } = await this.files.listRows({
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

  /** The first bytes of a shared text file, as UTF-8. */
  async previewText(open: OpenShare, row: FileRow): Promise<PublicFileView> {
    if (row.isFolder === 1) throw new AppError(ErrorCode.FILE_NOT_FOUND, 'A folder has no text');
    // without downloads, the text preview is for text: it is no way to read other files
    if (
      !open.settings.allowDownload &&
      !isTextSuffix(row.suffix) &&
      !row.contentType.startsWith('text/')
    )
      throw shareErrors.previewOnly();
    const view = toPublicView(open.root, row);
    let head: Buffer;
    try {
      head = await this.files.blobs.readHead(
        this.files.placeOf(open.owner, row),
        Math.min(TEXT_PREVIEW_BYTES, Math.max(0, row.size)),
      );
    } catch {
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file is missing on disk');
    }
    view.contentText = new TextDecoder('utf-8').decode(head, {
      stream: row.size > TEXT_PREVIEW_BYTES,
    });
    view.truncated = row.size > TEXT_PREVIEW_BYTES;
    return view;
  }

  countDownload(open: LocatedShare): Promise<void> {
    return this.repo.countDownload(open.share.id);
  }
}
