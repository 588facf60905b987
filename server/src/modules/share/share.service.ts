import { randomBytes } from 'node:crypto';
import {
  SHARE_CODE_LENGTH,
  SHARE_NEVER_EXPIRES,
  type GenerateShareBody,
  type ItemShareFacts,
  type ShareView,
} from '@nimbus/contract';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { exists } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time.ts';
import type { FileRow } from '../files/files.service.ts';
import { prefixOf, type FilesService } from '../files/files.service.ts';
import {
  isExpired,
  operationsOf,
  ownSettings,
  pairWithFiles,
  shareErrors,
  type ShareAccess,
} from './share-access.ts';
import { parseExpiry } from './share-expiry.ts';
import { codeFingerprint } from './share-token.ts';
import type { ShareRow, ShareSort } from './share.repo.ts';
import type { FilesRepo } from '../files/files.repo.ts';

// share codes and generated addresses avoid look-alike characters (0/O, 1/l/I)
const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const ADDRESS_ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const ADDRESS_LENGTH = 8;

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

/** Share links as their owners make, change, list and cancel them. */
export class ShareService {
  constructor(
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    readonly access: ShareAccess,
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
      id: share.id,
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

    const around = await this.access.enclosing(actor.id, file.path);
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
    const outer = file.trashId ? undefined : (await this.access.enclosing(actor.id, file.path))[0];
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
      const file = await this.fileRows.live(actor.id, share.fileId);
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
    const { shares, total } = await this.repo.page(
      actor.id,
      sort,
      order === 'ascending' ? 'asc' : 'desc',
      (p.pageIndex - 1) * p.pageSize,
      p.pageSize,
    );
    // a share of an item in the trash is listed too
    const files = await this.files.rowsOf(
      actor.id,
      shares.map((s) => s.fileId),
    );
    const items: ShareView[] = [];
    for (const r of pairWithFiles(shares, files)) items.push(await this.view(r.share, r.file));
    return { items, total };
  }

  /**
   * A listing's items, each saying whether it is shared (API-NOTES §1.3 FileIntroVO): its own
   * share (`shareBase`) or a shared folder above it, with the settings in force, those of the
   * outermost share. One query for the page; mounts and items in the trash are not shared.
   */
  async withShareFacts<T extends { id: string; path: string; mount?: unknown; trashDate?: string }>(
    owner: { id: string },
    items: T[],
  ): Promise<Array<T & ItemShareFacts>> {
    const own = items.filter((item) => !item.mount && item.trashDate === undefined);
    const shares = await this.repo.aroundItems(owner.id, own);
    const byFile = new Map(shares.map((s) => [s.fileId, s]));
    // the folders shared, outermost first: the first that holds an item gives its settings
    const folders = shares
      .map((s) => ({ share: s, prefix: `${s.filePath}${s.fileName}/` }))
      .sort((a, b) => a.prefix.length - b.prefix.length);
    return items.map((item) => {
      if (item.mount || item.trashDate !== undefined) return { ...item, isShare: false };
      const outer = folders.find((f) => item.path.startsWith(f.prefix))?.share;
      const mine = byFile.get(item.id);
      const source = outer ?? mine;
      if (!source) return { ...item, isShare: false };
      const settings = ownSettings(source);
      return {
        ...item,
        isShare: true,
        shareBase: mine !== undefined && outer === undefined,
        ...(mine && outer ? { subShare: true } : {}),
        isPrivacy: settings.isPrivacy,
        expiresAt: settings.expiresAt ?? SHARE_NEVER_EXPIRES,
      };
    });
  }

  /** DELETE share/cancel: the links stop working at once, with every token and mount of them. */
  async cancel(actor: Actor, shareIds: string[]): Promise<number> {
    const ids = [...new Set(shareIds)];
    // shares inside a cancelled folder share fall back on their own settings
    const inside: ShareRow[] = [];
    for (const id of ids) {
      const share = await this.repo.byId(id);
      if (!share || share.userId !== actor.id) continue;
      const file = await this.fileRows.live(actor.id, share.fileId);
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
      const root = await this.fileRows.live(share.userId, share.fileId);
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
}
