import { ErrorCode } from '@nimbus/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter, exists } from '../../lib/errors.ts';
import { newId, sha256Bytes } from '../../lib/ids.ts';
import { contentTypeOf, fileTypeOf } from './file-types.ts';
import { underPrefix, type FileRow, type NewFileRow } from './files.repo.ts';
import {
  prefixOf,
  toView,
  type FileView,
  type FilesService,
  type FolderRef,
  type Owner,
} from './files.service.ts';
import { checkName, parseFolderPath, suffixOf } from './names.ts';
import { emptyFileContent } from './empty-files.ts';
import { archiveKind, DEFAULT_LIMITS, extractArchive } from './archive.ts';
import { TreeIndexer } from './tree-index.ts';

export type Operation = 'move' | 'copy' | 'rename' | 'delete' | 'restore';

export interface OperationResult {
  operation: Operation;
  from: string;
  to: string;
  code: number;
  msg: string;
}

const fullPath = (row: Pick<FileRow, 'path' | 'name'>) => `${row.path}${row.name}`;

/** The rows not inside a folder among them: `/a/` and `/a/b.txt` give `/a/`. */
export function outermost<T extends Pick<FileRow, 'path' | 'name' | 'isFolder'>>(rows: T[]): T[] {
  const folders = new Set(rows.filter((r) => r.isFolder).map(prefixOf));
  if (folders.size === 0) return rows;
  return rows.filter((row) => {
    // every ancestor of `/a/b/c/`: `/a/`, `/a/b/`, `/a/b/c/`
    for (let at = row.path.indexOf('/', 1); at !== -1; at = row.path.indexOf('/', at + 1))
      if (folders.has(row.path.slice(0, at + 1))) return false;
    return true;
  });
}

/** Rename, move, copy, trash, restore and the rest: the rules of the file tree. */
export class FileOperations {
  readonly indexer: TreeIndexer;

  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
  ) {
    this.indexer = new TreeIndexer(db, files);
  }

  private get repo() {
    return this.files.repo;
  }

  private get tree() {
    return this.files.tree;
  }

  // ---- rename -----------------------------------------------------------------------------

  async rename(actor: Actor, id: string, rawName: unknown): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:update');
    const name = checkName(rawName);
    return this.files.withLock(actor.id, async () => {
      const row = await this.files.mustFindLive(actor.id, id);
      if (row.name === name) return toView(row);
      const clash = await this.repo.childNamed(actor.id, row.parentId, name);
      if (clash && clash.id !== row.id) throw exists(`"${name}" already exists in this folder`);
      await this.files.assertNoMount(actor.id, row.parentId, name);
      const from = this.files.diskPathOf(actor, row);
      const to = this.tree.pathOf(actor.username, row.path, name);
      const suffix = row.isFolder ? '' : suffixOf(name);
      const moveDisk = async () => {
        // a change of case only needs a step aside on case-insensitive disks
        if (from.toLowerCase() === to.toLowerCase()) {
          const aside = `${from}.${newId()}`;
          await this.tree.move(from, aside);
          await this.tree.move(aside, to);
        } else await this.tree.move(from, to);
      };
      await this.files.journaled(actor.id, 'move', from, to, moveDisk, async (trx) => {
        await trx
          .updateTable('file')
          .set({
            name,
            updateDate: Date.now(),
            ...(row.isFolder
              ? {}
              : {
                  suffix,
                  contentType: contentTypeOf(suffix, false),
                  fileType: fileTypeOf(suffix, false),
                }),
          })
          .where('id', '=', row.id)
          .execute();
        if (row.isFolder)
          await this.repo.rewritePrefix(actor.id, prefixOf(row), `${row.path}${name}/`, trx);
        const renamed = { ...row, name, suffix, fileType: fileTypeOf(suffix, row.isFolder === 1) };
        await this.files.changed({ kind: 'updated', userId: actor.id, rows: [renamed] }, trx);
      });
      const updated = toView(await this.files.mustFind(actor.id, id));
      this.files.notify(actor.id, 'operationFile', {
        operation: 'rename',
        from: fullPath(row),
        to: `${row.path}${name}`,
        code: 0,
        msg: '',
      } satisfies OperationResult);
      this.files.notify(actor.id, 'updateFile', updated);
      return updated;
    });
  }

  // ---- move and copy ----------------------------------------------------------------------

  /** The items of `froms` whose names are taken in the target folder. */
  async conflicts(actor: Actor, froms: string[], toId: string): Promise<FileView[]> {
    const target = await this.files.folderById(actor.id, toId);
    const rows = await this.liveItems(actor, froms);
    const names = await this.repo.childNames(actor.id, target.id);
    return rows.filter((r) => names.has(r.name) && r.parentId !== target.id).map(toView);
  }

  private async liveItems(actor: Actor, ids: string[]): Promise<FileRow[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badParameter('Choose at least one file');
    const rows = await this.repo.liveMany(actor.id, unique);
    if (rows.length !== unique.length)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'Some of these files no longer exist');
    return rows;
  }

  private assertNotInside(row: FileRow, target: FolderRef): void {
    if (row.isFolder && (target.id === row.id || target.prefix.startsWith(prefixOf(row)))) {
      throw badParameter(`"${row.name}" cannot be moved or copied into itself`);
    }
  }

  /** How much a copy of these items would write: items, bytes, and a name for the task list. */
  async measure(
    actor: Actor,
    froms: string[],
  ): Promise<{ items: number; bytes: number; name: string; path: string }> {
    const rows = await this.liveItems(actor, froms);
    let items = 0;
    let bytes = 0;
    for (const row of rows) {
      items += 1;
      if (row.isFolder) {
        const below = await this.repo.subtreeTotals(actor.id, prefixOf(row));
        items += below.count;
        bytes += below.bytes;
      } else bytes += row.size;
    }
    const first = rows[0]!;
    return {
      items,
      bytes,
      name: rows.length === 1 ? first.name : `${first.name} +${rows.length - 1}`,
      path: first.path,
    };
  }

  async move(
    actor: Actor,
    froms: string[],
    toId: string,
    override: boolean,
  ): Promise<OperationResult[]> {
    requireAuthority(actor, 'cloud:file:update');
    return this.files.withLock(actor.id, async () => {
      const target = await this.files.folderById(actor.id, toId);
      const rows = await this.liveItems(actor, froms);
      for (const row of rows) this.assertNotInside(row, target);
      const results: OperationResult[] = [];
      for (const row of rows) {
        const toPath = `${target.prefix}${row.name}`;
        if (row.parentId === target.id) {
          results.push({
            operation: 'move',
            from: fullPath(row),
            to: toPath,
            code: ErrorCode.IGNORE,
            msg: 'Already in this folder',
          });
          continue;
        }
        try {
          await this.makeRoom(actor, target, row.name, override);
          const from = this.files.diskPathOf(actor, row);
          const to = this.tree.pathOf(actor.username, target.prefix, row.name);
          await this.files.journaled(
            actor.id,
            'move',
            from,
            to,
            () => this.tree.move(from, to),
            async (trx) => {
              await trx
                .updateTable('file')
                .set({ parentId: target.id, path: target.prefix })
                .where('id', '=', row.id)
                .execute();
              if (row.isFolder)
                await this.repo.rewritePrefix(
                  actor.id,
                  prefixOf(row),
                  `${target.prefix}${row.name}/`,
                  trx,
                );
              await this.repo.adjustChildren(row.parentId, -1, trx);
              await this.repo.adjustChildren(target.id, 1, trx);
            },
          );
          results.push({ operation: 'move', from: fullPath(row), to: toPath, code: 0, msg: '' });
          // open folders on both sides follow the move
          this.files.notify(actor.id, 'deleteFile', {
            id: row.id,
            path: fullPath(row),
            parentId: row.parentId,
          });
          this.files.notify(
            actor.id,
            'createFile',
            toView(await this.files.mustFind(actor.id, row.id)),
          );
        } catch (err) {
          results.push(this.failure('move', row, toPath, err));
        }
      }
      this.report(actor.id, results);
      return results;
    });
  }

  /** Clear a name in the target folder: refuse, or with override move the holder to the trash. */
  private async makeRoom(
    actor: Actor,
    target: FolderRef,
    name: string,
    override: boolean,
  ): Promise<void> {
    // a mount cannot go to the trash to make room: refused even with override
    await this.files.assertNoMount(actor.id, target.id, name);
    const clash = await this.repo.childNamed(actor.id, target.id, name);
    if (!clash) return;
    if (!override) throw exists(`"${name}" already exists in the target folder`);
    await this.trashRow(actor, clash);
  }

  async copy(
    actor: Actor,
    froms: string[],
    toId: string,
    override: boolean,
  ): Promise<OperationResult[]> {
    requireAuthority(actor, 'cloud:file:upload');
    return this.files.withLock(actor.id, async () => {
      const target = await this.files.folderById(actor.id, toId);
      const rows = await this.liveItems(actor, froms);
      for (const row of rows) this.assertNotInside(row, target);
      let bytes = 0;
      for (const row of rows)
        bytes += row.isFolder
          ? (await this.repo.subtreeTotals(actor.id, prefixOf(row))).bytes
          : row.size;
      await this.files.assertSpace(actor.id, bytes);
      const results: OperationResult[] = [];
      for (const row of rows) {
        let name = row.name;
        try {
          if (row.parentId === target.id)
            name = await this.files.freeName(actor.id, target.id, row.name, row.isFolder === 1);
          else await this.makeRoom(actor, target, name, override);
          await this.copyRow(actor, row, target, name);
          results.push({
            operation: 'copy',
            from: fullPath(row),
            to: `${target.prefix}${name}`,
            code: 0,
            msg: '',
          });
        } catch (err) {
          results.push(this.failure('copy', row, `${target.prefix}${name}`, err));
        }
      }
      this.report(actor.id, results);
      return results;
    });
  }

  /** Copy one item (and everything below it) under a name; the caller holds the lock. */
  async copyRow(owner: Owner, row: FileRow, target: FolderRef, name: string): Promise<FileRow> {
    const from = this.files.diskPathOf(owner, row);
    const to = this.tree.pathOf(owner.username, target.prefix, name);
    const tmp = this.tree.tmpPath();
    const now = Date.now();
    const newRootId = newId();
    const newPrefix = `${target.prefix}${name}/`;
    const descendants = row.isFolder ? await this.repo.descendants(owner.id, prefixOf(row)) : [];
    const ids = new Map<string, string>([[row.id, newRootId]]);
    for (const d of descendants) ids.set(d.id, newId());
    const oldPrefix = prefixOf(row);
    const suffix = row.isFolder ? '' : suffixOf(name);
    const copies: NewFileRow[] = [
      {
        ...row,
        id: newRootId,
        parentId: target.id,
        path: target.prefix,
        name,
        ...(row.isFolder
          ? {}
          : {
              suffix,
              contentType: contentTypeOf(suffix, false),
              fileType: fileTypeOf(suffix, false),
            }),
        uploadDate: now,
        isFavorite: 0,
      },
      ...descendants.map((d) => ({
        ...d,
        id: ids.get(d.id)!,
        parentId: ids.get(d.parentId) ?? d.parentId,
        path: newPrefix + d.path.slice(oldPrefix.length),
        uploadDate: now,
        isFavorite: 0 as const,
      })),
    ];
    const bytes = copies.reduce((sum, c) => sum + (c.isFolder ? 0 : Number(c.size ?? 0)), 0);
    await this.files.journaled(
      owner.id,
      'copy',
      tmp,
      to,
      async () => {
        await this.tree.copy(from, tmp);
        await this.tree.move(tmp, to);
      },
      async (trx) => {
        await this.repo.insertMany(copies, trx);
        await this.repo.adjustChildren(target.id, 1, trx);
        await this.repo.adjustUsed(owner.id, bytes, trx);
        await this.files.changed({ kind: 'created', userId: owner.id, rows: copies }, trx);
      },
      // the copy holds its bytes from its intent to its commit: the binding quota check
      { bytes },
    );
    const created = await this.files.mustFind(owner.id, newRootId);
    this.files.notify(owner.id, 'createFile', toView(created));
    return created;
  }

  async duplicate(actor: Actor, fileId: string, rawName?: unknown): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:upload');
    return this.files.withLock(actor.id, async () => {
      const row = await this.files.mustFindLive(actor.id, fileId);
      if (row.isFolder) throw badParameter('Only files can be duplicated; copy a folder instead');
      await this.files.assertSpace(actor.id, row.size);
      const parent: FolderRef = { id: row.parentId, prefix: row.path };
      let name: string;
      if (rawName !== undefined && rawName !== '') {
        name = checkName(rawName);
        if (await this.repo.childNamed(actor.id, row.parentId, name))
          throw exists(`"${name}" already exists in this folder`);
        await this.files.assertNoMount(actor.id, row.parentId, name);
      } else name = await this.files.freeName(actor.id, row.parentId, row.name, false);
      return toView(await this.copyRow(actor, row, parent, name));
    });
  }

  // ---- trash ------------------------------------------------------------------------------

  async trash(actor: Actor, ids: string[]): Promise<number> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const rows = await this.liveItems(actor, ids);
      // an item inside another item of the same request goes with its ancestor
      const roots = outermost(rows);
      for (const row of roots) await this.trashRow(actor, row);
      this.files.notify(actor.id, 'operationTips', { operation: 'delete', success: true, msg: '' });
      return roots.length;
    });
  }

  /** Move one live item to the trash; the caller holds the lock. */
  async trashRow(owner: Owner, row: FileRow): Promise<void> {
    const from = this.files.diskPathOf(owner, row);
    const to = this.tree.trashPathOf(owner.username, row.id);
    const now = Date.now();
    await this.files.journaled(
      owner.id,
      'trash',
      from,
      to,
      () => this.tree.move(from, to),
      async (trx) => {
        if (row.isFolder) {
          await trx
            .updateTable('file')
            .set({ trashId: row.id, trashedAt: now })
            .where('userId', '=', owner.id)
            .where('trashId', 'is', null)
            .where((eb) => eb.or([eb('id', '=', row.id), underPrefix(prefixOf(row))]))
            .execute();
        } else {
          await trx
            .updateTable('file')
            .set({ trashId: row.id, trashedAt: now })
            .where('id', '=', row.id)
            .execute();
        }
        await this.repo.adjustChildren(row.parentId, -1, trx);
        await this.files.changed({ kind: 'trashed', userId: owner.id, trashId: row.id }, trx);
      },
    );
    this.files.notify(owner.id, 'deleteFile', { id: row.id, path: fullPath(row) });
  }

  async restore(actor: Actor, ids: string[]): Promise<OperationResult[]> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const results: OperationResult[] = [];
      for (const id of new Set(ids)) {
        const row = await this.trashRoot(actor.id, id);
        try {
          results.push(await this.restoreRow(actor, row));
        } catch (err) {
          results.push(this.failure('restore', row, fullPath(row), err));
        }
      }
      this.report(actor.id, results);
      return results;
    });
  }

  private async trashRoot(userId: string, id: string): Promise<FileRow> {
    const row = await this.repo.byId(userId, id);
    if (!row || row.trashId !== row.id)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'This item is not in the trash');
    return row;
  }

  private async restoreRow(actor: Actor, row: FileRow): Promise<OperationResult> {
    // the original folder, recreated if it went away meanwhile
    const parent = await this.files.ensureFolders(actor, parseFolderPath(row.path));
    const name = await this.files.freeName(actor.id, parent.id, row.name, row.isFolder === 1);
    const from = this.tree.trashPathOf(actor.username, row.id);
    const to = this.tree.pathOf(actor.username, parent.prefix, name);
    await this.files.journaled(
      actor.id,
      'restore',
      from,
      to,
      () => this.tree.move(from, to),
      async (trx) => {
        // while still in the trash: the new name and, below a renamed folder, the new paths
        await trx
          .updateTable('file')
          .set({ name, parentId: parent.id, path: parent.prefix })
          .where('id', '=', row.id)
          .execute();
        if (row.isFolder && (name !== row.name || parent.prefix !== row.path)) {
          const oldPrefix = prefixOf(row);
          await trx
            .updateTable('file')
            .set({
              path: sql<string>`${`${parent.prefix}${name}/`} || substr(path, ${[...oldPrefix].length + 1})`,
            })
            .where('userId', '=', actor.id)
            .where('trashId', '=', row.id)
            .where('id', '!=', row.id)
            .execute();
        }
        await trx
          .updateTable('file')
          .set({ trashId: null, trashedAt: null })
          .where('userId', '=', actor.id)
          .where('trashId', '=', row.id)
          .execute();
        await this.repo.adjustChildren(parent.id, 1, trx);
        await this.files.changed({ kind: 'restored', userId: actor.id }, trx);
      },
    );
    const restored = await this.files.mustFind(actor.id, row.id);
    this.files.notify(actor.id, 'createFile', toView(restored));
    return {
      operation: 'restore',
      from: fullPath(row),
      to: fullPath(restored),
      code: 0,
      msg: name === row.name ? '' : `Restored as "${name}"`,
    };
  }

  /** Delete trashed items for good and give their space back. */
  async sweep(actor: Actor, ids: string[]): Promise<number> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const rows: FileRow[] = [];
      for (const id of new Set(ids)) rows.push(await this.trashRoot(actor.id, id));
      for (const row of rows) await this.sweepRow(actor, row);
      return rows.length;
    });
  }

  async clearTrash(actor: Actor): Promise<number> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const rows = await this.db
        .selectFrom('file')
        .selectAll()
        .where('userId', '=', actor.id)
        .where('trashId', 'is not', null)
        .whereRef('trashId', '=', 'id')
        .execute();
      for (const row of rows) await this.sweepRow(actor, row);
      this.files.notify(actor.id, 'operationTips', {
        operation: 'clear-trash',
        success: true,
        msg: '',
      });
      return rows.length;
    });
  }

  private async sweepRow(owner: Owner, row: FileRow): Promise<void> {
    // database first: a crash leaves only unreferenced bytes in the trash folder, removed on boot
    await this.db.transaction().execute(async (trx) => {
      const total = await trx
        .selectFrom('file')
        .select((eb) => eb.fn.sum<number>('size').as('bytes'))
        .where('userId', '=', owner.id)
        .where('trashId', '=', row.id)
        .where('isFolder', '=', 0)
        .executeTakeFirstOrThrow();
      await trx
        .deleteFrom('file')
        .where('userId', '=', owner.id)
        .where('trashId', '=', row.id)
        .execute();
      await this.repo.adjustUsed(owner.id, -Number(total.bytes ?? 0), trx);
    });
    await this.tree.remove(this.tree.trashPathOf(owner.username, row.id));
  }

  // ---- flags and new files ----------------------------------------------------------------

  async setFavorite(actor: Actor, ids: string[], favorite: boolean): Promise<void> {
    const rows = await this.liveItems(actor, ids);
    await this.db
      .updateTable('file')
      .set({ isFavorite: favorite ? 1 : 0 })
      .where('userId', '=', actor.id)
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    for (const r of rows)
      this.files.notify(actor.id, 'updateFile', { ...toView(r), isFavorite: favorite });
  }

  /** A new empty file: txt, md, a mind map, or a valid empty Word, Excel or PowerPoint document. */
  async addFile(
    actor: Actor,
    parentPath: unknown,
    rawName: unknown,
    folderId?: string,
  ): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:upload');
    const name = checkName(rawName);
    return this.files.withLock(actor.id, async () => {
      const parent = folderId
        ? await this.files.folderById(actor.id, folderId)
        : await this.files.resolveFolder(actor.id, parentPath);
      if (await this.repo.childNamed(actor.id, parent.id, name))
        throw exists(`"${name}" already exists in this folder`);
      await this.files.assertNoMount(actor.id, parent.id, name);
      const content = await emptyFileContent(suffixOf(name), name);
      await this.files.assertSpace(actor.id, content.length);
      const target = this.tree.pathOf(actor.username, parent.prefix, name);
      if (await this.tree.exists(target))
        throw exists('An item with this name is already on disk here; rebuild the index to see it');
      await this.tree.writeAtomic(target, content);
      const row = await this.files.insertFile(actor, parent, name, {
        size: content.length,
        hash: sha256Bytes(content),
      });
      this.files.notify(actor.id, 'createFile', toView(row));
      return toView(row);
    });
  }

  // ---- archives ---------------------------------------------------------------------------

  /**
   * Extract a zip, tar or tar.gz into a new folder named after it, inside `destFolderId` (or
   * beside the archive). Entries escaping the folder, links, and archives expanding past the
   * limits or the quota are refused, and nothing of the archive stays behind.
   */
  async unzip(actor: Actor, fileId: string, destFolderId?: string): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:upload');
    const row = await this.files.mustFindLive(actor.id, fileId);
    const kind = archiveKind(row.name);
    if (row.isFolder || !kind)
      throw new AppError(
        ErrorCode.UNRECOGNIZED_FILE,
        'Only zip, tar and tar.gz archives can be extracted',
      );
    const staging = this.tree.tmpPath();
    try {
      const room = Math.max(0, await this.files.spaceLeft(actor.id));
      const expanded = await extractArchive(this.files.diskPathOf(actor, row), staging, kind, {
        ...DEFAULT_LIMITS,
        maxBytes: Math.min(DEFAULT_LIMITS.maxBytes, room),
      }).catch((err: unknown) => {
        if (
          err instanceof AppError &&
          /allowed size/.test(err.message) &&
          room < DEFAULT_LIMITS.maxBytes
        ) {
          throw new AppError(
            ErrorCode.SPACE_FULL,
            'Not enough space left in your drive to extract this archive',
          );
        }
        throw err;
      });
      return await this.files.withLock(actor.id, async () => {
        await this.files.assertSpace(actor.id, expanded);
        const target = destFolderId
          ? await this.files.folderById(actor.id, destFolderId)
          : { id: row.parentId, prefix: row.path };
        const base = row.name.replace(/(\.tar\.gz|\.tgz|\.tar|\.zip|\.jar)$/i, '') || row.name;
        const name = await this.files.freeName(actor.id, target.id, base, true);
        const folderId = newId();
        const to = this.tree.pathOf(actor.username, target.prefix, name);
        const now = Date.now();
        const rows = await this.indexer.indexNew(actor, staging, {
          id: folderId,
          prefix: `${target.prefix}${name}/`,
        });
        const folderRow: NewFileRow = {
          id: folderId,
          userId: actor.id,
          parentId: target.id,
          name,
          path: target.prefix,
          isFolder: 1,
          size: 0,
          contentType: contentTypeOf('', true),
          suffix: '',
          fileType: 'folder',
          hash: null,
          uploadDate: now,
          updateDate: now,
          isFavorite: 0,
          media: null,
          childrenCount: rows.filter((r) => r.parentId === folderId).length,
          trashId: null,
          trashedAt: null,
        };
        const bytes = rows.reduce((sum, r) => sum + Number(r.size ?? 0), 0);
        await this.files.journaled(
          actor.id,
          'copy',
          staging,
          to,
          () => this.tree.move(staging, to),
          async (trx) => {
            await this.repo.insertMany([folderRow, ...rows], trx);
            await this.repo.adjustChildren(target.id, 1, trx);
            await this.repo.adjustUsed(actor.id, bytes, trx);
            await this.files.changed(
              { kind: 'created', userId: actor.id, rows: [folderRow, ...rows] },
              trx,
            );
          },
          { bytes },
        );
        const created = toView(await this.files.mustFind(actor.id, folderId));
        this.files.notify(actor.id, 'createFile', created);
        return created;
      });
    } finally {
      await this.tree.remove(staging);
    }
  }

  // ---- reporting --------------------------------------------------------------------------

  private failure(operation: Operation, row: FileRow, to: string, err: unknown): OperationResult {
    if (!(err instanceof AppError)) throw err;
    return { operation, from: fullPath(row), to, code: -1, msg: err.message };
  }

  private report(userId: string, results: OperationResult[]): void {
    for (const r of results)
      if (r.code !== ErrorCode.IGNORE) this.files.notify(userId, 'operationFile', r);
  }
}
