import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import {
  ErrorCode,
  MARKDOWN_ASSETS,
  MAX_DOCUMENT_BYTES,
  MAX_DRAFT_BYTES,
  DRAFTS_MAX_CHARS,
  DRAFTS_PER_USER,
  MAX_MARKDOWN_IMAGE_BYTES,
  type MarkdownImage,
  type MarkdownImageTarget,
  type DocumentSaveBody,
  type DocumentSaveByPathBody,
  type DocumentView,
  type SavedContent,
} from '@nimbus/contract';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { decodeSample, detectCharset } from '../../lib/charset.ts';
import type { Db } from '../../db/index.ts';
import { AppError, badParameter } from '../../lib/errors.ts';
import { Gate } from '../../lib/gate.ts';
import { fetchPublic, type AddressPolicy } from '../../lib/net-guard.ts';
import { formatDateTime } from '../../lib/time.ts';
import type { FileRow } from '../files/files.repo.ts';
import type { FileOperations } from '../files/file-ops.service.ts';
import { ROOT, type FilesService, type FolderRef } from '../files/files.service.ts';
import { checkName } from '../files/names.ts';
import { savedOf, type HistoryService } from '../history/history.service.ts';
import { MarkdownRepo } from './markdown.repo.ts';

const tooLarge = () =>
  new AppError(
    ErrorCode.BAD_PARAMETER,
    `Documents larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB are not opened in the editor`,
  );

/**
 * The document editors' reading and saving (markdown, mind maps, text): a document is opened
 * with the version it is at, and saved from that version through the history service, which
 * refuses a save over content that changed meanwhile and keeps what a save replaces.
 */
/** The kinds of image a document may hold, by their first bytes (never SVG: it runs script). */
export function imageSuffixOf(head: Buffer): string | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpg';
  if (
    head
      .subarray(0, 6)
      .toString('latin1')
      .match(/^GIF8[79]a$/)
  )
    return 'gif';
  if (
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  if (starts(0x42, 0x4d)) return 'bmp';
  if (head.subarray(4, 12).toString('latin1') === 'ftypavif') return 'avif';
  return null;
}

const notAnImage = () =>
  new AppError(
    ErrorCode.BAD_PARAMETER,
    'Only PNG, JPEG, GIF, WebP, BMP and AVIF images can be added',
  );

export interface MarkdownOptions {
  /** Addresses a URL import may connect to; by default the public internet only. */
  allowAddress?: AddressPolicy;
  fetchTimeoutMs?: number;
}

export class MarkdownService {
  private readonly repo: MarkdownRepo;
  /** Remote images being fetched at once by this node (its connections: local). */
  private readonly fetches = new Gate(4);

  constructor(
    db: Db,
    private readonly files: FilesService,
    private readonly fileOps: FileOperations,
    private readonly history: HistoryService,
    private readonly options: MarkdownOptions = {},
  ) {
    this.repo = new MarkdownRepo(db);
  }

  /** A document's text and the version it is at. */
  async document(actor: Actor, fileId: string): Promise<DocumentView> {
    const row = await this.files.mustFindLive(actor.id, fileId);
    return this.read(actor, row);
  }

  private async read(actor: Actor, row: FileRow): Promise<DocumentView> {
    if (row.isFolder) throw badParameter('A folder is not a document');
    if (row.size > MAX_DOCUMENT_BYTES) throw tooLarge();
    const bytes = await buffer(this.files.blobs.read(this.files.placeOf(actor, row))).catch(() => {
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file is missing on disk');
    });
    const charset = detectCharset(bytes, false);
    const draft = await this.repo.draft(row.id, actor.id);
    return {
      id: row.id,
      name: row.name,
      path: row.path,
      contentText: decodeSample(bytes, charset, false),
      hash: row.hash,
      size: row.size,
      updateDate: formatDateTime(row.updateDate),
      draft: draft
        ? {
            contentText: draft.contentText,
            baseHash: draft.baseHash,
            updateDate: formatDateTime(draft.updatedAt),
          }
        : null,
    };
  }

  /** Keep `contentText` as the actor's draft of a file of theirs; the file is untouched. */
  private async keepDraft(actor: Actor, row: FileRow, body: DocumentSaveBody) {
    if (Buffer.byteLength(body.contentText, 'utf8') > MAX_DRAFT_BYTES)
      throw badParameter('contentText: a draft keeps at most 2 MB; save the document instead');
    await this.repo.keepDraft({
      fileId: row.id,
      userId: actor.id,
      contentText: body.contentText,
      baseHash: body.baseHash ?? row.hash,
      updatedAt: Date.now(),
    });
    // drafts are not counted in the quota: their number and size are bounded instead
    await this.repo.trimDrafts(actor.id, { count: DRAFTS_PER_USER, chars: DRAFTS_MAX_CHARS });
    return savedOf(row);
  }

  /** `DELETE /markdown/deleteDraft`: forget the actor's draft of a file. */
  async dropDraft(actor: Actor, fileId: string): Promise<void> {
    const row = await this.files.mustFindLive(actor.id, fileId);
    await this.repo.dropDraft(row.id, actor.id);
  }

  /** `/markdown/edit`: save a document by id from the version it was opened at, or make one. */
  async save(actor: Actor, body: DocumentSaveBody): Promise<SavedContent> {
    requireAuthority(actor, 'cloud:file:upload');
    const content = Buffer.from(body.contentText, 'utf8');
    if (content.length > MAX_DOCUMENT_BYTES) throw tooLarge();
    if (!body.fileId) {
      if (!body.filename) throw badParameter('filename: required to make a new document');
      const made = await this.fileOps.addFile(actor, body.currentDirectory ?? '/', body.filename);
      const row = await this.files.mustFindLive(actor.id, made.id);
      return this.write(actor, row, content, { baseHash: row.hash });
    }
    const row = await this.files.mustFindLive(actor.id, body.fileId);
    if (body.draft) return this.keepDraft(actor, row, body);
    return this.write(actor, row, content, body);
  }

  /** `/markdown/edit1`: the same, the document named by its path. */
  async saveAt(actor: Actor, body: DocumentSaveByPathBody): Promise<SavedContent> {
    requireAuthority(actor, 'cloud:file:upload');
    const content = Buffer.from(body.contentText, 'utf8');
    if (content.length > MAX_DOCUMENT_BYTES) throw tooLarge();
    const row = await this.files.byPath(actor.id, body.relativePath);
    return this.write(actor, row, content, body);
  }

  private async write(
    actor: Actor,
    row: FileRow,
    content: Buffer,
    rules: { baseHash?: string | null; force?: boolean },
  ): Promise<SavedContent> {
    if (row.isFolder) throw badParameter('A folder is not a document');
    const { staged, size, hash } = await this.files.stage(content, MAX_DOCUMENT_BYTES);
    try {
      const saved = await this.history.replace(
        actor,
        actor.username,
        row,
        staged,
        {
          size,
          hash,
        },
        { baseHash: rules.baseHash, force: rules.force, isText: true },
      );
      // saved: the draft has served
      await this.repo.dropDraft(row.id, actor.id);
      return savedOf(saved);
    } finally {
      await this.files.blobs.remove(staged);
    }
  }

  // ---- images ------------------------------------------------------------------------------

  /** The folder a document's images go to: `assets` beside it, made when missing. */
  private async assetsFolder(actor: Actor, target: MarkdownImageTarget): Promise<FolderRef> {
    let home: FolderRef = ROOT;
    if (target.fileId) {
      const doc = await this.files.mustFindLive(actor.id, target.fileId);
      home = { id: doc.parentId, prefix: doc.path };
    } else if (target.currentDirectory) {
      home = await this.files.resolveFolder(actor.id, target.currentDirectory);
    }
    return this.files.withLock(actor.id, () =>
      this.files.ensureFolders(actor, [MARKDOWN_ASSETS], home),
    );
  }

  /**
   * `/upload-markdown-image`: one image stored in the document's assets folder under a free
   * name; answered with the address the document links it by (relative to the document).
   */
  async addImage(
    actor: Actor,
    target: MarkdownImageTarget,
    filename: string,
    content: Readable | Buffer,
    originalURL?: string,
  ): Promise<MarkdownImage> {
    requireAuthority(actor, 'cloud:file:upload');
    const { staged, size, hash } = await this.files
      .stage(content, MAX_MARKDOWN_IMAGE_BYTES)
      .catch((err: unknown) => {
        if (err instanceof AppError)
          throw new AppError(ErrorCode.BAD_PARAMETER, 'The image is larger than 20 MB');
        throw err;
      });
    try {
      const head = await buffer(this.files.blobs.read(staged, { start: 0, end: 15 }));
      const kind = imageSuffixOf(head);
      if (!kind) throw notAnImage();
      const folder = await this.assetsFolder(actor, target);
      const name = imageName(filename, kind);
      const row = await this.files.addStaged(actor, folder, name, staged, { size, hash });
      return {
        url: `${MARKDOWN_ASSETS}/${encodeURIComponent(row.name)}`,
        ...(originalURL ? { originalURL } : {}),
        fileId: row.id,
        filename: row.name,
        filepath: `${row.path}${row.name}`,
      };
    } finally {
      await this.files.blobs.remove(staged);
    }
  }

  /**
   * `/upload-markdown-link-image`: an image from a web address, fetched by the server from the
   * public internet only (never its own networks), then stored like an uploaded one.
   */
  async importImage(
    actor: Actor,
    target: MarkdownImageTarget,
    address: string,
  ): Promise<MarkdownImage> {
    requireAuthority(actor, 'cloud:file:upload');
    // a fetched image is held in memory until stored: a few at a time for the whole server
    const fetched = await this.fetches.run('fetch', () =>
      fetchPublic(address, {
        allow: this.options.allowAddress,
        maxBytes: MAX_MARKDOWN_IMAGE_BYTES,
        timeoutMs: this.options.fetchTimeoutMs ?? 15_000,
        accept: (type) => type.startsWith('image/') && !type.includes('svg'),
      }),
    );
    // imageName takes the last segment as it is when it is not percent-encoded text
    const last = fetched.url.pathname.split('/').pop() || 'image';
    return this.addImage(actor, target, last, fetched.body, address);
  }
}

/** A safe file name for an image: the given one (without its folders) with the kind's suffix. */
function imageName(given: string, kind: string): string {
  let decoded = given;
  try {
    decoded = decodeURIComponent(given);
  } catch {
    // not percent-encoded: taken as it is
  }
  const base = decoded.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.[^.]*$/, '').slice(0, 100);
  const wanted = `${stem || 'image'}.${kind}`;
  try {
    return checkName(wanted);
  } catch {
    return `image.${kind}`;
  }
}
