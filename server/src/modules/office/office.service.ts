import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  ErrorCode,
  MASKED_SECRET,
  OFFICE_CONVERT_MAX_BYTES,
  OFFICE_SIGNATURE_MAX_CHARS,
  OFFICE_SUFFIXES,
  type OfficeConfigInput,
  type OfficeConfigView,
  type OfficeHistory,
  type PublicOfficeConfigView,
} from '@nimbus/contract';
import { can, requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter, forbidden, notLoggedIn } from '../../lib/errors.ts';
import { Gate } from '../../lib/gate.ts';
import { formatDateTime } from '../../lib/time.ts';
import type { Place } from '../../storage/blob-store.ts';
import { dropCached } from '../../storage/drop-cached.ts';
import { fileIdAtStart, markUsed, type CacheKeeper } from '../cache/cache-keeper.ts';
import { bytesGrant, requireDownload } from '../files/bytes-grant.ts';
import type { BytesToSend, DownloadService } from '../files/download.service.ts';
import type { FileRow } from '../files/files.repo.ts';
import { type FilesService, type Owner } from '../files/files.service.ts';
import {
  shareErrors,
  type OpenShare,
  type ShareAccess,
  type ShareCredentials,
  type ShareTarget,
} from '../share/share-access.ts';
import { verifyJwt, signJwt } from './office-jwt.ts';
import {
  OFFICE_CALLBACK_TTL_MS,
  OFFICE_FILE_LINK_TTL_MS,
  type OfficeLinkQuery,
  type OfficeLinks,
} from './office-links.ts';
import type { HistoryService } from '../history/history.service.ts';
import type { OfficeSettings } from './office-settings.ts';
import { convertToPdf, hasSoffice } from './programs/soffice.ts';
import type { SelectionRepo } from '../files/selection.repo.ts';

/** A document's PDF, ready for sendFileBytes: where it is and the row it is sent as. */
export interface OfficePdf {
  blobs: FilesService['blobs'];
  place: Place;
  row: Pick<FileRow, 'name' | 'contentType' | 'hash' | 'size' | 'updateDate' | 'suffix'>;
  previewOnly?: () => Error;
}

/** Who a callback or a signed address acts for: the auth service's lookups. */
export interface OfficeAuth {
  /** The actor of a `nimbus-token` (the callback form of older editors). */
  authenticate(token: string): Promise<{ actor: Actor } | null>;
  /** The actor a signed address was made for, with the user's current grants. */
  actorFor(userId: string): Promise<Actor | null>;
}

export interface OfficeOptions {
  /** LibreOffice conversions at once, across all files. */
  parallel: number;
  timeoutMs: number;
  /** What an edited document the document server hands back may weigh at most. */
  maxSaveBytes?: number;
  /** How long the document server may fetch a document by the address it was given. */
  fileLinkTtlMs?: number;
  /** How long the save callback's address of an editing session holds. */
  callbackTtlMs?: number;
}

/** The bytes a signed address opens: a document's current ones, or a kept version. */
export type OfficeFileBytes =
  { kind: 'current'; bytes: BytesToSend } | { kind: 'version'; filename: string; body: Readable };

const DOCUMENT_TYPES: Record<string, string> = {
  xls: 'cell',
  xlsx: 'cell',
  ods: 'cell',
  csv: 'cell',
  ppt: 'slide',
  pptx: 'slide',
  odp: 'slide',
};

const queryOf = (values: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(values).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();

const OFFICE = new Set<string>(OFFICE_SUFFIXES);
/** A document that could not be converted is not tried again before this (a broken file). */
const RETRY_AFTER_MS = 10 * 60_000;
/** The cache name of a document's PDF: its id and the version of its bytes. */
const pdfKeyOf = (row: Pick<FileRow, 'id' | 'hash' | 'size' | 'updateDate'>) =>
  `${row.id}-${versionOf(row).slice(0, 32)}.pdf`;

/** Which office PDFs are made of a document's current bytes. */
export const officeCacheKeeper: CacheKeeper = {
  kind: 'office',
  fileOf: (key) => fileIdAtStart(key),
  isCurrent: (key, row) => key === pdfKeyOf(row),
};

/** Callback statuses (API-NOTES §1.15): 2 ready to save, 6 force-saved. */
const SAVE_STATUSES = new Set([2, 6]);

const notOffice = () =>
  new AppError(ErrorCode.UNRECOGNIZED_FILE, 'This file is not an office document');
const conversionFailed = () =>
  new AppError(ErrorCode.UNRECOGNIZED_FILE, 'This document could not be converted for viewing');

/** The bytes' fingerprint a cache key and a document key are made of. */
const versionOf = (row: Pick<FileRow, 'hash' | 'size' | 'updateDate'>) =>
  (row.hash ?? `${row.size.toString(16)}-${Number(row.updateDate).toString(16)}`).replace(
    /[^0-9a-zA-Z]/g,
    '',
  );

/** The OnlyOffice document key of a file's current bytes: it changes whenever they do. */
export const documentKey = (row: Pick<FileRow, 'id' | 'hash' | 'size' | 'updateDate'>) =>
  `${row.id.replace(/[^0-9a-zA-Z_-]/g, '')}-${versionOf(row).slice(0, 40)}`.slice(0, 128);

/**
 * Office documents: LibreOffice makes a PDF of one on its first view (cached by content,
 * one conversion per document at a time, a few at once in all, each with a timeout), for the
 * owner, mounters and share visitors; and the OnlyOffice integration (its settings, the
 * signature of an editor's configuration, the save callback that writes an edited document).
 */
export class OfficeService {
  /** Conversions under way, by cache key: a second viewer waits for the first one's PDF. */
  private readonly converting = new Map<string, Promise<Place>>();
  /** Documents that failed lately, by cache key: not tried again for a while. */
  private readonly failures = new Map<string, number>();
  /** The soffice processes of this node (its CPU and memory), so it stays local. */
  private readonly gate: Gate;

  constructor(
    private readonly files: FilesService,
    private readonly fileSelection: SelectionRepo,
    private readonly shareAccess: ShareAccess,
    readonly settings: OfficeSettings,
    private readonly auth: OfficeAuth,
    private readonly versions: HistoryService,
    private readonly downloads: DownloadService,
    private readonly links: OfficeLinks,
    private readonly options: OfficeOptions,
  ) {
    this.gate = new Gate(Math.max(1, options.parallel));
    // documents deleted for good take their PDFs with them (in the background: only cache)
    files.onChange(async (change, trx) => {
      if (change.kind !== 'purged') return;
      const rows = await this.fileSelection.trashedFilesOf(
        change.userId,
        change.trashIds,
        ['document'],
        trx,
      );
      const places = rows
        .filter((row) => OFFICE.has(row.suffix.toLowerCase()))
        .map((row) => this.blobs.cached('office', pdfKeyOf(row)));
      dropCached(this.blobs, places);
    });
  }

  private get blobs() {
    return this.files.blobs;
  }

  // ---- the PDF of a document ----------------------------------------------------------------

  /** The PDF of `owner`'s office document, converted now if it has none yet. */
  async pdf(owner: Owner, row: FileRow): Promise<OfficePdf> {
    if (row.isFolder === 1 || !OFFICE.has(row.suffix.toLowerCase())) throw notOffice();
    if (row.size > OFFICE_CONVERT_MAX_BYTES)
      throw new AppError(ErrorCode.UNRECOGNIZED_FILE, 'This document is too large to view');
    const key = pdfKeyOf(row);
    const place = this.blobs.cached('office', key);
    if (!(await this.blobs.exists(place))) {
      const failedAt = this.failures.get(key);
      if (failedAt !== undefined && Date.now() - failedAt < RETRY_AFTER_MS)
        throw conversionFailed();
      let running = this.converting.get(key);
      if (!running) {
        running = this.convert(owner, row, place)
          .catch((err: unknown) => {
            this.remember(key);
            throw err;
          })
          .finally(() => this.converting.delete(key));
        this.converting.set(key, running);
      }
      await running;
    } else markUsed(this.blobs, place);
    return {
      blobs: this.blobs,
      place,
      row: {
        name: `${row.name.replace(/\.[^.]*$/, '')}.pdf`,
        contentType: 'application/pdf',
        suffix: 'pdf',
        hash: `${versionOf(row).slice(0, 24)}pdf`,
        size: row.size,
        updateDate: row.updateDate,
      },
    };
  }

  private remember(key: string): void {
    this.failures.set(key, Date.now());
    // a bounded memory: the oldest failures go first
    if (this.failures.size > 1000) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  private async convert(owner: Owner, row: FileRow, to: Place): Promise<Place> {
    if (!hasSoffice())
      throw new AppError(ErrorCode.UNRECOGNIZED_FILE, 'Office documents cannot be viewed here');
    return this.gate.run('soffice', async () => {
      if (await this.blobs.exists(to)) return to;
      const local = await this.blobs.local(this.files.placeOf(owner, row));
      const scratch = await this.blobs.scratch();
      try {
        await convertToPdf(local.path, scratch.path, {
          signal: AbortSignal.timeout(this.options.timeoutMs + 5000),
          timeoutMs: this.options.timeoutMs,
        });
        await this.blobs.move(
          this.blobs.child(this.blobs.child(scratch.place, 'out'), 'document.pdf'),
          to,
        );
        await this.dropOlder(row.id, to);
        return to;
      } catch {
        throw conversionFailed();
      } finally {
        await scratch.release();
        await local.release();
      }
    });
  }

  /** The PDFs of the document's earlier bytes: a new one replaces them. */
  private async dropOlder(fileId: string, current: Place): Promise<void> {
    const root = this.blobs.cacheRoot('office');
    for (const entry of await this.blobs.list(root)) {
      const place = this.blobs.child(root, entry.name);
      if (entry.name.startsWith(`${fileId}-`) && place !== current) await this.blobs.remove(place);
    }
  }

  /** A signed-in user's document: their own, or one of a share they mounted. */
  async ownPdf(actor: Actor, fileId: string): Promise<OfficePdf> {
    const { owner, row } = await this.shareAccess.fileForActor(actor, fileId);
    return this.pdf(owner, row);
  }

  /** A share visitor's document. A PDF to look at is a preview, even where downloads are off. */
  async publicPdf(creds: ShareCredentials, target: ShareTarget): Promise<OfficePdf> {
    const { open, row } = await this.shareAccess.access(creds, target);
    return { ...(await this.pdf(open.owner, row)), previewOnly: shareErrors.previewOnly };
  }

  // ---- OnlyOffice settings ----------------------------------------------------------------

  private async view(): Promise<OfficeConfigView> {
    const c = await this.settings.get();
    return {
      documentServer: c.documentServer,
      callbackServer: c.callbackServer,
      tokenEnabled: c.secret !== '',
      format: c.format,
      secret: c.secret ? MASKED_SECRET : '',
    };
  }

  /** The document server's origin (what the editor page may load from), or null. */
  async documentServerOrigin(): Promise<string | null> {
    const { documentServer } = await this.settings.get();
    try {
      return documentServer ? new URL(documentServer).origin : null;
    } catch {
      return null;
    }
  }

  /** Every user who browses files needs to know where the document server is. */
  async config(actor: Actor): Promise<OfficeConfigView> {
    requireAuthority(actor, 'cloud:file:list');
    return this.view();
  }

  async setConfig(actor: Actor, input: OfficeConfigInput): Promise<OfficeConfigView> {
    requireAuthority(actor, 'cloud:set:sync');
    await this.settings.set({
      ...input,
      // the masked value shown by GET keeps the secret that is set
      secret: input.secret === MASKED_SECRET ? undefined : input.secret,
    });
    return this.view();
  }

  /** What a share's visitor needs to open a document of the share in OnlyOffice. */
  async publicConfig(creds: ShareCredentials): Promise<PublicOfficeConfigView> {
    await this.shareAccess.open(creds);
    const { secret: _secret, ...rest } = await this.view();
    return rest;
  }

  // ---- signing an editor's configuration ----------------------------------------------------

  /**
   * The JWT of a DocsAPI configuration ('' when no secret is set). Only an editor's
   * configuration is signed: never a callback's body, which would let a user forge one.
   */
  private async sign(config: unknown): Promise<string> {
    if (!config || typeof config !== 'object' || Array.isArray(config))
      throw badParameter('The configuration must be a JSON object');
    const record = config as Record<string, unknown>;
    if (JSON.stringify(record).length > OFFICE_SIGNATURE_MAX_CHARS)
      throw badParameter('The configuration is too long');
    // an editor configuration, or the data of one version the editor shows from its history;
    // never anything shaped like a save callback
    const isConfig = Boolean(record.document) && typeof record.document === 'object';
    const isVersion =
      typeof record.key === 'string' &&
      typeof record.url === 'string' &&
      typeof record.version === 'number';
    if ((!isConfig && !isVersion) || 'status' in record)
      throw badParameter('Only an editor configuration or a version of its history is signed');
    const { secret } = await this.settings.get();
    return secret ? signJwt(record, secret) : '';
  }

  async signature(actor: Actor, config: unknown): Promise<string> {
    requireAuthority(actor, 'cloud:file:list');
    return this.sign(config);
  }

  async publicSignature(creds: ShareCredentials, config: unknown): Promise<string> {
    await this.shareAccess.open(creds);
    return this.sign(config);
  }

  // ---- the editor's configuration and its signed addresses ----------------------------------

  /**
   * The DocsAPI configuration that opens one of the actor's documents (their own or a mounted
   * share's) in the document server's editor, signed with its secret. The document's address
   * and the save callback carry a signature for this file and this user (office-links.ts),
   * never a session token. `api`: the address the document server reaches Nimbus's API at,
   * when no callback server is set.
   */
  async editor(
    actor: Actor,
    fileId: string,
    input: { api: string; lang?: string },
  ): Promise<Record<string, unknown>> {
    requireAuthority(actor, 'cloud:file:list');
    const { row, open } = await this.shareAccess.fileForActor(actor, fileId);
    if (row.isFolder === 1) throw notOffice();
    // the editor shows the bytes: what reading them by id needs
    const bytes = await this.downloads.fileById(actor, row.id, false);
    const config = await this.settings.get();
    const api = (config.callbackServer || input.api).replace(/\/+$/, '');
    const suffix = row.suffix.toLowerCase();
    const file = this.links.sign(
      { kind: 'file', fileId: row.id },
      actor.id,
      this.options.fileLinkTtlMs ?? OFFICE_FILE_LINK_TTL_MS,
    );
    const track = this.links.sign(
      { kind: 'track', fileId: row.id },
      actor.id,
      this.options.callbackTtlMs ?? OFFICE_CALLBACK_TTL_MS,
    );
    const docs: Record<string, unknown> = {
      document: {
        fileType: suffix,
        key: documentKey(row),
        title: row.name,
        url: `${api}/office/file?${queryOf({ fileId: row.id, ...file })}`,
        permissions: { edit: this.mayEdit(actor, open), download: !bytes.previewOnly },
      },
      documentType: DOCUMENT_TYPES[suffix] ?? 'word',
      editorConfig: {
        callbackUrl: `${api}/office/track?${queryOf({ fileId: row.id, ...track })}`,
        lang: input.lang ?? 'en',
        user: { id: actor.id, name: actor.username },
      },
      width: '100%',
      height: '100%',
    };
    return this.signed(docs, config.secret);
  }

  /**
   * The data the editor's history panel shows one version by (`id`: a kept one, none: the
   * current bytes), its address signed for this file, version and user.
   */
  async versionData(
    actor: Actor,
    fileId: string,
    input: { id?: string; version: number; api: string },
  ): Promise<Record<string, unknown>> {
    const { row, open } = await this.shareAccess.fileForActor(actor, fileId);
    if (row.isFolder === 1) throw notOffice();
    requireDownload(bytesGrant(actor, open));
    if (input.id) await this.versions.version(actor, input.id, row.id);
    const config = await this.settings.get();
    const api = (config.callbackServer || input.api).replace(/\/+$/, '');
    const link = this.links.sign(
      { kind: 'file', fileId: row.id, version: input.id },
      actor.id,
      this.options.fileLinkTtlMs ?? OFFICE_FILE_LINK_TTL_MS,
    );
    const data = {
      fileType: row.suffix.toLowerCase(),
      key: input.id ?? documentKey(row),
      url: `${api}/office/file?${queryOf({ fileId: row.id, id: input.id, ...link })}`,
      version: input.version,
    };
    return this.signed(data, config.secret);
  }

  /** The bytes a signed address opens, read as the user it was made for, with today's rights. */
  async signedFile(
    target: { fileId: string; id?: string },
    link: Partial<OfficeLinkQuery>,
  ): Promise<OfficeFileBytes> {
    const actor = await this.linkActor(
      { kind: 'file', fileId: target.fileId, version: target.id },
      link,
    );
    if (!target.id)
      return { kind: 'current', bytes: await this.downloads.fileById(actor, target.fileId, false) };
    const { version, body } = await this.versions.bytes(actor, target.id, target.fileId);
    return { kind: 'version', filename: version.filename, body };
  }

  private async linkActor(
    target: Parameters<OfficeLinks['verify']>[0],
    link: Partial<OfficeLinkQuery>,
  ): Promise<Actor> {
    const actor = await this.auth.actorFor(this.links.verify(target, link));
    if (!actor) throw forbidden('The user this address was made for no longer exists');
    return actor;
  }

  private mayEdit(actor: Actor, open: OpenShare | null): boolean {
    if (!can(actor, 'cloud:file:update')) return false;
    try {
      if (open) this.requireEdit(open);
      return true;
    } catch {
      return false;
    }
  }

  private signed(data: Record<string, unknown>, secret: string): Record<string, unknown> {
    return secret ? { ...data, token: signJwt(data, secret) } : data;
  }

  // ---- the save callback --------------------------------------------------------------------

  /**
   * The document server's callback (API-NOTES §1.15). With a secret set, its body counts only
   * when signed (the `token` field, or the Authorization header whose `payload` is the body).
   * The address's signature (or, from older editors, its `nimbus-token`) names the user the
   * editor was opened for, who must still be allowed to change the file. Saves download the
   * edited document from the document server only.
   */
  async track(input: {
    fileId: string;
    link: Partial<OfficeLinkQuery>;
    nimbusToken: string | undefined;
    body: Record<string, unknown>;
    authorization: string | undefined;
  }): Promise<{ error: number }> {
    const config = await this.settings.get();
    let body = input.body;
    if (config.secret) {
      const bearer = /^Bearer\s+(.+)$/i.exec(input.authorization ?? '')?.[1];
      const inBody = typeof body.token === 'string' ? body.token : undefined;
      const claims =
        (inBody ? verifyJwt(inBody, config.secret) : null) ??
        (bearer ? verifyJwt(bearer, config.secret) : null);
      if (!claims) throw forbidden('The callback is not signed by the document server');
      const fromHeader = !inBody || verifyJwt(inBody, config.secret) === null;
      const signed = fromHeader ? claims.payload : claims;
      if (!signed || typeof signed !== 'object') throw forbidden('The callback has no signed body');
      body = signed as Record<string, unknown>;
    }
    let actor: Actor;
    if (input.link.signature || !input.nimbusToken) {
      actor = await this.linkActor({ kind: 'track', fileId: input.fileId }, input.link);
    } else {
      const found = await this.auth.authenticate(input.nimbusToken);
      if (!found) throw notLoggedIn();
      actor = found.actor;
    }
    const status = Number(body.status);
    if (!SAVE_STATUSES.has(status)) {
      // 1 editing, 3 save failed, 4 closed unchanged, 7 force-save failed: nothing to do
      return { error: 0 };
    }
    requireAuthority(actor, 'cloud:file:update');
    const { owner, row, open } = await this.shareAccess.fileForActor(actor, input.fileId);
    if (open) this.requireEdit(open);
    if (row.isFolder === 1) throw notOffice();
    const url = typeof body.url === 'string' ? body.url : '';
    await this.save(owner, actor.username, row, this.checkedSource(url, config.documentServer));
    return { error: 0 };
  }

  private requireEdit(open: OpenShare): void {
    this.shareAccess.require(open, 'edit');
  }

  /** The edited document's address, only on the configured document server. */
  private checkedSource(url: string, documentServer: string): URL {
    let source: URL;
    let server: URL;
    try {
      source = new URL(url);
      server = new URL(documentServer);
    } catch {
      throw badParameter('The callback names no document on the document server');
    }
    if (!/^https?:$/.test(source.protocol) || source.origin !== server.origin)
      throw badParameter('The edited document must come from the configured document server');
    return source;
  }

  /**
   * Download the edited document and put it over the file, keeping its id; what it held
   * becomes a version. `operator`: who edited.
   */
  private async save(owner: Owner, operator: string, row: FileRow, source: URL): Promise<void> {
    const response = await fetch(source, {
      redirect: 'error',
      signal: AbortSignal.timeout(this.options.timeoutMs),
    }).catch(() => null);
    if (!response?.ok || !response.body)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The edited document could not be downloaded');
    const room = Math.min(
      (await this.files.spaceLeft(owner.id)) + row.size,
      this.options.maxSaveBytes ?? 1024 * 1024 * 1024,
    );
    const hash = createHash('sha256');
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > room) return done(new AppError(ErrorCode.SPACE_FULL, 'Not enough space'));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    body.on('error', (err) => counter.destroy(err));
    const staged = this.blobs.staging();
    try {
      await this.blobs.write(staged, body.pipe(counter));
      const digest = hash.digest('hex');
      await this.versions.replace(owner, operator, row, staged, { size, hash: digest });
    } finally {
      await this.blobs.remove(staged).catch(() => undefined);
    }
  }

  // ---- history ------------------------------------------------------------------------------

  /**
   * The document's versions in OnlyOffice's history shape, oldest first: each kept version by
   * its id, then the current bytes under the document key an editor opens the file with.
   */
  async history(actor: Actor, fileId: string): Promise<OfficeHistory> {
    const { owner, row, open } = await this.shareAccess.fileForActor(actor, fileId);
    if (row.isFolder === 1) throw notOffice();
    // who edited when is part of the versions, which only a download gives
    requireDownload(bytesGrant(actor, open));
    const kept = (await this.versions.all(row)).reverse();
    const entries = kept.map((v, i) => ({
      key: v.id,
      version: i + 1,
      created: v.uploadDate,
      user: { id: v.metadata.operator, name: v.metadata.operator },
    }));
    entries.push({
      key: documentKey(row),
      version: kept.length + 1,
      created: formatDateTime(row.updateDate),
      user: { id: owner.id, name: owner.username },
    });
    return { currentVersion: kept.length + 1, history: entries };
  }
}
