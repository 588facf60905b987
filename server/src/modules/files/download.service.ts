import { ErrorCode } from '@nimbus/contract';
import type { Actor } from '../../lib/access.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import type { ZipEntry } from '../../lib/zip.ts';
import type { Place } from '../../storage/blob-store.ts';
import type { ShareAccess } from '../share/share-access.ts';
import { bytesGrant, previewOnlyOf, requireDownload } from './bytes-grant.ts';
import type { StoredBytes } from './file-serve.ts';
import { isDeflatable } from './file-types.ts';
import type { FileRow } from './files.repo.ts';
import { prefixOf, type FilesService, type Owner } from './files.service.ts';

/** Zip entries of the chosen items: files, and folders with everything below them. */
export async function* zipEntriesOf(
  files: FilesService,
  owner: Owner,
  rows: FileRow[],
): AsyncGenerator<ZipEntry> {
  const used = new Set<string>();
  const open = (place: Place) => () => files.blobs.read(place);
  for (const row of rows) {
    // two chosen items with one name (from different folders) keep both
    let top = row.name;
    for (let n = 1; used.has(top); n++) top = `${row.name} (${n})`;
    used.add(top);
    if (!row.isFolder) {
      yield {
        name: top,
        isFolder: false,
        mtime: new Date(row.updateDate),
        compress: isDeflatable(row.suffix),
        open: open(files.placeOf(owner, row)),
      };
      continue;
    }
    yield { name: `${top}/`, isFolder: true, mtime: new Date(row.updateDate) };
    const base = prefixOf(row);
    const below = await files.subtree.descendants(owner.id, base);
    below.sort((a, b) =>
      a.path === b.path ? a.name.localeCompare(b.name) : a.path < b.path ? -1 : 1,
    );
    for (const d of below) {
      const relative = `${top}/${d.path.slice(base.length)}${d.name}`;
      if (d.isFolder) yield { name: `${relative}/`, isFolder: true, mtime: new Date(d.updateDate) };
      else
        yield {
          name: relative,
          isFolder: false,
          mtime: new Date(d.updateDate),
          compress: isDeflatable(d.suffix),
          open: open(files.placeOf(owner, d)),
        };
    }
  }
}

/**
 * What a zip of a selection is called: the item, for one; else the folder the items were chosen
 * in (the deepest folder holding them all), and the owner's name for the top of the tree.
 */
export function zipNameOf(owner: { username: string }, rows: Pick<FileRow, 'name' | 'path'>[]) {
  if (rows.length === 1) return rows[0]!.name;
  let common = rows[0]?.path.split('/').filter(Boolean) ?? [];
  for (const row of rows) {
    const segments = row.path.split('/').filter(Boolean);
    let same = 0;
    while (same < common.length && common[same] === segments[same]) same++;
    common = common.slice(0, same);
  }
  return common.at(-1) ?? owner.username;
}

/** Stored bytes to send (file-serve.ts sends them). */
export interface BytesToSend extends StoredBytes {
  row: FileRow;
  /** Without downloads (the role's or a mounted share's): only what a preview shows, else this. */
  previewOnly?: () => Error;
}

const folderHasNoBytes = () =>
  new AppError(ErrorCode.FILE_NOT_FOUND, 'A folder has no bytes; download it as a zip');

/** Who may have which bytes: a file by path or id, and zips of a selection. */
export class DownloadService {
  constructor(
    private readonly files: FilesService,
    private readonly shareAccess: ShareAccess,
  ) {}

  /** `/file/{user}{path}`: the owner's own bytes by path. */
  async ownFile(
    actor: Actor,
    username: string,
    fullPath: string,
    download: boolean,
  ): Promise<BytesToSend> {
    if (username !== actor.username) throw forbidden('This file belongs to another user');
    const row = await this.files.byPath(actor.id, fullPath);
    if (row.isFolder) throw folderHasNoBytes();
    const grant = bytesGrant(actor, null);
    if (download) requireDownload(grant);
    return {
      blobs: this.files.blobs,
      place: this.files.placeOf(actor, row),
      row,
      previewOnly: previewOnlyOf(grant),
    };
  }

  /** `/pre-file/{id}`: bytes by id, of one's own files or of files in a mounted share. */
  async fileById(actor: Actor, id: string, download: boolean): Promise<BytesToSend> {
    const { owner, row, open } = await this.shareAccess.fileForActor(actor, id);
    if (row.isFolder) throw folderHasNoBytes();
    const grant = bytesGrant(actor, open);
    if (download) requireDownload(grant);
    return {
      blobs: this.files.blobs,
      place: this.files.placeOf(owner, row),
      row,
      previewOnly: previewOnlyOf(grant),
    };
  }

  /** Whether these items may be downloaded: all of them must be the actor's and alive. */
  async permit(actor: Actor, ids: string[]) {
    await this.chosen(actor, ids);
    return { allowDownload: true, isRedirect: false, redirectUrl: null };
  }

  /** A zip of the chosen items, in the order chosen: its name and its entries. */
  async zipOf(
    actor: Actor,
    ids: string[],
  ): Promise<{ name: string; entries: AsyncIterable<ZipEntry> }> {
    const rows = await this.chosen(actor, ids);
    const order = new Map([...new Set(ids)].map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    return {
      name: `${zipNameOf(actor, rows)}.zip`,
      entries: zipEntriesOf(this.files, actor, rows),
    };
  }

  private async chosen(actor: Actor, ids: string[]): Promise<FileRow[]> {
    requireDownload(bytesGrant(actor, null));
    const unique = [...new Set(ids)];
    const rows = await this.files.repo.liveMany(actor.id, unique);
    if (rows.length !== unique.length)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'Some of these files no longer exist');
    return rows;
  }
}
