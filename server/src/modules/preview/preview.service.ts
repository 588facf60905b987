import type { Readable } from 'node:stream';
import {
  ARCHIVE_LISTING_MAX_ENTRIES,
  ErrorCode,
  PREVIEW_CONFIG_MAX_CHARS,
  TEXT_PREVIEW_MAX_BYTES,
  type ArchiveListing,
  type PreviewConfig,
  type TextDocument,
  archiveKindOf,
} from '@nimbus/contract';
import JSON5 from 'json5';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter, forbidden } from '../../lib/errors.ts';
import { formatDateTime } from '../../lib/time.ts';
import type { Place } from '../../storage/blob-store.ts';
import { bytesGrant, previewOnlyOf } from '../files/bytes-grant.ts';
import { repackAsTar } from '../files/programs/repack.ts';
import { isTextSuffix } from '../files/file-types.ts';
import type { FileRow, FilesService } from '../files/files.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import {
  publicPathOf,
  type ShareAccess,
  type ShareCredentials,
  type ShareTarget,
} from '../share/share-access.ts';
import { listingOf, tarEntries, zipEntries } from './archive-listing.ts';
import {
  CHARSET_SAMPLE_BYTES,
  decodeSample,
  detectCharset,
  looksLikeText,
  toUtf8,
  type Charset,
} from '../../lib/charset.ts';

/** A file found for a preview: its row, its bytes, and what the asker may see of it. */
interface Found {
  row: FileRow;
  place: Place;
  /** The parent folder as the asker knows it (relative to the shared folder for a visitor). */
  path: string;
  /** Downloads are not allowed here (bytes-grant.ts): only what a preview is for, else this. */
  previewOnly?: () => Error;
}

/** A file's text as a stream of UTF-8, with the charset it was read in. */
export interface TextStream {
  row: FileRow;
  charset: Charset;
  body: Readable;
}

const noText = () => new AppError(ErrorCode.FILE_NOT_FOUND, 'A folder has no text');
const missing = () => new AppError(ErrorCode.FILE_NOT_FOUND, 'The file is missing on disk');

/** An address a viewer may be framed from: a path of this site, or an http(s) address. */
const SAFE_TEMPLATE = /^(\/(?!\/)|https?:\/\/)/i;

/**
 * Previews that are no image, video or document: a file's text in its own charset, whole or
 * streamed; what an archive holds; and the Preview Config of iframe viewers. Owners, mounters
 * and share visitors each pass their own gate first.
 */
export class PreviewService {
  constructor(
    private readonly files: FilesService,
    private readonly shareAccess: ShareAccess,
    private readonly settings: SettingsService,
  ) {}

  // ---- access -------------------------------------------------------------------------------

  /** One's own file by id, or a file of a share one mounted. */
  async byId(actor: Actor, id: string): Promise<Found> {
    const { owner, row, open } = await this.shareAccess.fileForActor(actor, id);
    if (row.isFolder) throw noText();
    return {
      row,
      place: this.files.placeOf(owner, row),
      path: open ? publicPathOf(open.root, row) : row.path,
      previewOnly: previewOnlyOf(bytesGrant(actor, open)),
    };
  }

  /** One's own file by its full path (`/a/b.txt`); another user's name is refused. */
  async byPath(actor: Actor, fullPath: string, username?: string): Promise<Found> {
    if (username && username !== actor.username)
      throw forbidden('This file belongs to another user');
    const row = await this.files.byPath(actor.id, fullPath);
    if (row.isFolder) throw noText();
    return {
      row,
      place: this.files.placeOf(actor, row),
      path: row.path,
      previewOnly: previewOnlyOf(bytesGrant(actor, null)),
    };
  }

  /** A file of a share, for its visitor. */
  async shared(creds: ShareCredentials, target: ShareTarget): Promise<Found> {
    const { open, row } = await this.shareAccess.access(creds, target);
    if (row.isFolder === 1) throw noText();
    return {
      row,
      place: this.files.placeOf(open.owner, row),
      path: publicPathOf(open.root, row),
      previewOnly: previewOnlyOf(bytesGrant(creds.actor, open)),
    };
  }

  // ---- text ---------------------------------------------------------------------------------

  private async sample(found: Found): Promise<{ sample: Buffer; charset: Charset; cut: boolean }> {
    let sample: Buffer;
    try {
      sample = await this.files.blobs.readHead(
        found.place,
        Math.min(CHARSET_SAMPLE_BYTES, Math.max(0, found.row.size)),
      );
    } catch {
      throw missing();
    }
    const cut = found.row.size > sample.length;
    const charset = detectCharset(sample, cut);
    // without downloads, the text preview is for text: it is no way to read other files
    if (
      found.previewOnly &&
      !isTextSuffix(found.row.suffix) &&
      !found.row.contentType.startsWith('text/') &&
      !looksLikeText(sample, charset)
    )
      throw found.previewOnly();
    return { sample, charset, cut };
  }

  /** `/preview/text`: the first TEXT_PREVIEW_MAX_BYTES of a file, decoded in its charset. */
  async text(found: Found): Promise<TextDocument> {
    const { row } = found;
    const { charset } = await this.sample(found);
    const limit = Math.min(TEXT_PREVIEW_MAX_BYTES, Math.max(0, row.size));
    let head: Buffer;
    try {
      head = await this.files.blobs.readHead(found.place, limit);
    } catch {
      throw missing();
    }
    const truncated = row.size > head.length;
    return {
      id: row.id,
      name: row.name,
      path: found.path,
      size: row.size,
      contentType: row.contentType,
      suffix: row.suffix,
      updateDate: formatDateTime(row.updateDate),
      contentText: decodeSample(head, charset, truncated),
      decoder: charset.name,
      truncated,
    };
  }

  /** `/preview/text/stream`: the whole text as it is read, converted to UTF-8. */
  async textStream(found: Found): Promise<TextStream> {
    const { charset } = await this.sample(found);
    const bytes = this.files.blobs.read(found.place);
    const body = bytes.pipe(toUtf8(charset));
    bytes.once('error', (err) => body.destroy(err));
    return { row: found.row, charset, body };
  }

  // ---- archives -----------------------------------------------------------------------------

  /**
   * What a zip, jar, tar, tar.gz, 7z or rar holds, read from its directory or headers (7z and
   * rar through bsdtar's re-packing), never extracted.
   */
  async archive(found: Found): Promise<ArchiveListing> {
    const kind = archiveKindOf(found.row.name);
    if (!kind)
      throw new AppError(
        ErrorCode.UNRECOGNIZED_FILE,
        'Only zip, tar, tar.gz, 7z and rar archives can be listed',
      );
    const max = ARCHIVE_LISTING_MAX_ENTRIES;
    if (kind === 'zip' || kind === '7z' || kind === 'rar') {
      const local = await this.files.blobs.local(found.place).catch(() => {
        throw missing();
      });
      try {
        const { raw, truncated } =
          kind === 'zip'
            ? await zipEntries(local.path, max)
            : await tarEntries(repackAsTar(local.path), false, max);
        return listingOf(kind, raw, truncated);
      } finally {
        await local.release();
      }
    }
    const { raw, truncated } = await tarEntries(
      this.files.blobs.read(found.place),
      kind === 'tgz',
      max,
    );
    return listingOf(kind, raw, truncated);
  }

  // ---- the Preview Config -------------------------------------------------------------------

  async config(actor: Actor): Promise<PreviewConfig> {
    requireAuthority(actor, 'cloud:set:sync');
    return { iframe: await this.settings.get('iframe') };
  }

  /**
   * Stores the Preview Config (spec §3): a JSON5 object of comma-separated suffix lists, each
   * naming its viewers' addresses. Every address is a path of this site or an http(s) address,
   * so a config can never frame a script address.
   */
  async setConfig(actor: Actor, iframe: string): Promise<PreviewConfig> {
    requireAuthority(actor, 'cloud:set:sync');
    if (iframe.length > PREVIEW_CONFIG_MAX_CHARS)
      throw badParameter('The Preview Config is too long');
    let parsed: unknown;
    try {
      parsed = JSON5.parse(iframe);
    } catch (err) {
      throw badParameter(`The Preview Config is not valid JSON5: ${(err as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw badParameter(
        'The Preview Config maps suffixes to viewers: { "pdf": { "name": "/address?file=$e_url" } }',
      );
    for (const [suffixes, viewers] of Object.entries(parsed)) {
      if (!viewers || typeof viewers !== 'object' || Array.isArray(viewers))
        throw badParameter(`"${suffixes}" must map viewer names to addresses`);
      for (const [name, address] of Object.entries(viewers as Record<string, unknown>)) {
        if (typeof address !== 'string' || !SAFE_TEMPLATE.test(address.trim()))
          throw badParameter(
            `The address of "${name}" must be a path of this site or an http(s) address`,
          );
      }
    }
    await this.settings.set('iframe', iframe);
    return { iframe };
  }
}
