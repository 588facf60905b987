import { createHash } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import type { BlobStore, Place } from '../../storage/blob-store.ts';
import type { CHECK_FINDING_KINDS, CheckFacts } from '@nimbus/contract';
import { CheckRepo, type CheckedRow } from './check.repo.ts';

/** What the consistency check can find (docs/operations.md, "Consistency check"). */
export type FindingKind = (typeof CHECK_FINDING_KINDS)[number];

export interface Finding {
  kind: FindingKind;
  /** The owner's username; empty when no user is known. */
  user: string;
  userId: string;
  /** The item: a path in the user's tree, `trash/<id>`, `versions/<file>/<version>`… */
  item: string;
  detail: string;
  facts?: CheckFacts;
  /** `--repair` made it right (recomputed, or the bytes moved to lost+found). */
  repaired: boolean;
}

export interface CheckOptions {
  /** Hash every file that has a recorded hash; otherwise a random sample of `sample`. */
  full?: boolean;
  sample?: number;
  /** Repair what can be repaired without losing anything. */
  repair?: boolean;
  /** Check these users only (their rows, bytes, sizes); the journal is checked as a whole. */
  userIds?: string[];
  now?: number;
  /** Told how far the check is, 0..99, and what it is at (a username, "hashes", "repairs"). */
  progress?: (percent: number, note: string) => void;
  /**
   * Cancels the check: it is looked at between users, folders, hashed files and their chunks,
   * and repairs. A check cut short answers what it found so far (`cancelled`), repairs nothing
   * if it was cancelled before them, and stops between whole repairs if cancelled during them.
   */
  signal?: AbortSignal;
}

export interface CheckReport {
  findings: Finding[];
  users: number;
  rows: number;
  hashed: number;
  /** Where stray bytes were moved, when any were. */
  lostAndFound: string | null;
  /** Cut short by `signal`: the findings are those found until then. */
  cancelled: boolean;
}

export const DEFAULT_SAMPLE = 32;

/**
 * Compare the database with the stored bytes: every row's bytes are there with its size (and,
 * for a sample or with `full` all, its hash), no bytes lie in a tree, the trash or the versions
 * without a row, folder sizes and used space add up, and the crash journal is empty. With
 * `repair`, sizes and used space are recomputed and stray bytes are moved to lost+found; missing
 * bytes, differing sizes and hashes and journal entries are only named.
 */
export async function checkDrive(
  db: Db,
  store: BlobStore,
  options: CheckOptions = {},
): Promise<CheckReport> {
  const repo = new CheckRepo(db);
  const findings: Finding[] = [];
  const toHash: Array<{ user: { id: string; username: string }; row: CheckedRow; at: Place }> = [];
  const strays: Array<{ finding: Finding; at: Place; area: string }> = [];
  const users = await repo.users(options.userIds);
  let rowCount = 0;
  const stopped = () => options.signal?.aborted === true;

  for (const [index, user] of users.entries()) {
    if (stopped()) break;
    // the users' trees are most of the work, then the hashes
    options.progress?.(Math.floor((index / users.length) * 80), user.username);
    const add = (kind: FindingKind, item: string, detail: string, facts?: CheckFacts) => {
      const finding: Finding = {
        kind,
        user: user.username,
        userId: user.id,
        item,
        detail,
        ...(facts ? { facts } : {}),
        repaired: false,
      };
      findings.push(finding);
      return finding;
    };
    const rows = await repo.rowsOf(user.id);
    rowCount += rows.length;

    // ---- the tree: live rows against the user's folder ----
    const live = new Map<string, CheckedRow>();
    for (const r of rows) if (r.trashId === null) live.set(`${r.path}${r.name}`, r);
    const seen = new Set<string>();
    const walk = async (folderPath: string) => {
      if (stopped()) return;
      for (const entry of await store.list(store.folder(user.username, folderPath))) {
        if (stopped()) return;
        const key = `${folderPath}${entry.name}`;
        const at = store.item(user.username, folderPath, entry.name);
        const row = live.get(key);
        if (!row) {
          strays.push({
            finding: add('stray-bytes', `${key}${entry.isFolder ? '/' : ''}`, 'no row owns it'),
            at,
            area: 'files',
          });
          continue;
        }
        seen.add(key);
        if (row.isFolder !== entry.isFolder) {
          add(
            'kind-differs',
            key,
            `the row is a ${row.isFolder ? 'folder' : 'file'}, the bytes a ${entry.isFolder ? 'folder' : 'file'}`,
          );
          continue;
        }
        if (entry.isFolder) await walk(`${key}/`);
        else await compareSize(row, at, key);
      }
    };
    const compareSize = async (row: CheckedRow, at: Place, item: string) => {
      const stat = await store.stat(at);
      if (!stat) return;
      if (stat.size !== row.size)
        add(
          'size-differs',
          item,
          `the row says ${row.size} bytes, the stored file has ${stat.size}`,
          { recorded: Number(row.size), actual: stat.size },
        );
      else if (row.hash) toHash.push({ user, row, at });
    };
    await walk('/');
    // a tree not walked to its end would name bytes it never reached as missing
    if (stopped()) break;
    const missing = [...live.keys()].filter((k) => !seen.has(k)).sort();
    const missingFolders: string[] = [];
    for (const key of missing) {
      // below a missing folder, the folder is named, not each item
      if (missingFolders.some((f) => key.startsWith(`${f}/`))) continue;
      if (live.get(key)!.isFolder) missingFolders.push(key);
      add('missing-bytes', key, 'the row has no stored bytes');
    }

    // ---- the trash: each deleted item's bytes under its id ----
    const trashed = new Map(rows.filter((r) => r.trashId === r.id).map((r) => [r.id, r]));
    const trashRoot = store.trashRoot(user.username);
    const inTrash = new Set<string>();
    for (const entry of await store.list(trashRoot)) {
      const at = store.child(trashRoot, entry.name);
      const row = trashed.get(entry.name);
      if (!row) {
        strays.push({
          finding: add('stray-bytes', `trash/${entry.name}`, 'no row in the trash owns it'),
          at,
          area: 'trash',
        });
        continue;
      }
      inTrash.add(entry.name);
      if (row.isFolder !== entry.isFolder)
        add('kind-differs', `trash/${row.id}`, `${row.path}${row.name}: file and folder differ`);
      else if (!row.isFolder) await compareSize(row, at, `trash/${row.id}`);
    }
    for (const row of trashed.values())
      if (!inTrash.has(row.id))
        add('missing-bytes', `trash/${row.id}`, `${row.path}${row.name}: no bytes in the trash`);

    // ---- earlier versions ----
    const versions = await repo.versionsOf(user.id);
    const versionRows = new Map(versions.map((v) => [`${v.fileId}/${v.id}`, v]));
    const versionsRoot = store.versionsRoot(user.id);
    const versionsSeen = new Set<string>();
    for (const fileEntry of await store.list(versionsRoot)) {
      const fileAt = store.child(versionsRoot, fileEntry.name);
      const members = fileEntry.isFolder ? await store.list(fileAt) : [];
      if (!fileEntry.isFolder || members.length === 0) {
        if (!versions.some((v) => v.fileId === fileEntry.name))
          strays.push({
            finding: add('stray-bytes', `versions/${fileEntry.name}`, 'no version row owns it'),
            at: fileAt,
            area: 'versions',
          });
        continue;
      }
      for (const entry of members) {
        const key = `${fileEntry.name}/${entry.name}`;
        const at = store.child(fileAt, entry.name);
        const version = versionRows.get(key);
        if (!version || entry.isFolder) {
          strays.push({
            finding: add('stray-bytes', `versions/${key}`, 'no version row owns it'),
            at,
            area: 'versions',
          });
          continue;
        }
        versionsSeen.add(key);
        const stat = await store.stat(at);
        if (stat && stat.size !== version.storedSize)
          add(
            'size-differs',
            `versions/${key}`,
            `the row says ${version.storedSize} stored bytes, the stored file has ${stat.size}`,
            { recorded: Number(version.storedSize), actual: stat.size },
          );
      }
    }
    for (const key of versionRows.keys())
      if (!versionsSeen.has(key))
        add('missing-bytes', `versions/${key}`, 'the version row has no stored bytes');

    // ---- sizes kept in the rows ----
    const drift = sizeDrift(rows, versions, user.usedBytes);
    for (const f of drift.folders)
      add(
        'folder-size',
        f.item,
        `the row says ${f.recorded} bytes, the files below hold ${f.actual}`,
        { recorded: f.recorded, actual: f.actual },
      );
    if (drift.used)
      add(
        'used-space',
        user.username,
        `used space says ${drift.used.recorded} bytes, files and versions hold ${drift.used.actual}`,
        { recorded: drift.used.recorded, actual: drift.used.actual },
      );
  }

  // ---- hashes: a sample, or all ----
  let sample = toHash;
  if (!options.full) {
    const size = options.sample ?? DEFAULT_SAMPLE;
    sample = [...toHash];
    for (let i = sample.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [sample[i], sample[j]] = [sample[j]!, sample[i]!];
    }
    sample = sample.slice(0, size);
  }
  let hashed = 0;
  for (const [index, { user, row, at }] of sample.entries()) {
    if (stopped()) break;
    options.progress?.(80 + Math.floor((index / sample.length) * 15), 'hashes');
    const digest = await sha256(store, at, options.signal);
    if (stopped()) break;
    hashed += 1;
    if (digest !== null && digest !== row.hash)
      findings.push({
        kind: 'hash-differs',
        user: user.username,
        userId: user.id,
        item: row.trashId === null ? `${row.path}${row.name}` : `trash/${row.trashId}`,
        detail: `the row says sha256 ${row.hash!.slice(0, 12)}…, the bytes hash to ${digest.slice(0, 12)}…`,
        facts: { recorded: row.hash!.slice(0, 12), actual: digest.slice(0, 12) },
        repaired: false,
      });
  }

  if (stopped())
    return {
      findings,
      users: users.length,
      rows: rowCount,
      hashed,
      lostAndFound: null,
      cancelled: true,
    };

  // ---- the crash journal ----
  const byId = new Map((await repo.users()).map((u) => [u.id, u.username]));
  for (const op of await repo.unfinished())
    findings.push({
      kind: 'unfinished-journal',
      user: byId.get(op.userId) ?? '',
      userId: op.userId,
      item: `${op.kind} ${op.id}`,
      detail: `${op.kind} begun ${new Date(Number(op.createdAt)).toISOString()} never committed; starting the server rolls it back`,
      facts: { operation: op.kind, since: Number(op.createdAt) },
      repaired: false,
    });

  // ---- repairs ----
  let lostAndFound: string | null = null;
  if (options.repair) {
    options.progress?.(95, 'repairs');
    for (const user of users) {
      // each repair is whole (one user's recount is one transaction): a cancel stops between them
      if (stopped()) break;
      const userFindings = findings.filter(
        (f) => f.userId === user.id && (f.kind === 'folder-size' || f.kind === 'used-space'),
      );
      if (userFindings.length === 0) continue;
      // recount in one transaction from the rows as they are now, so a change made meanwhile
      // is counted, not overwritten
      await repo.transaction(async (trx) => {
        const rows = await repo.rowsOf(user.id, trx);
        const versions = await repo.versionsOf(user.id, trx);
        const current = await trx
          .selectFrom('user')
          .select('usedBytes')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow();
        const drift = sizeDrift(rows, versions, Number(current.usedBytes));
        for (const f of drift.folders) await repo.setFolderSize(f.id, f.actual, trx);
        if (drift.used) await repo.setUsed(user.id, drift.used.actual, trx);
      });
      for (const f of userFindings) f.repaired = true;
    }
    if (strays.length > 0 && !stopped()) {
      const stamp = new Date(options.now ?? Date.now()).toISOString().replace(/[:.]/g, '-');
      const root = store.child(store.lostAndFound(), stamp);
      lostAndFound = root;
      for (const { finding, at, area } of strays) {
        if (stopped()) break;
        const names = [
          area,
          finding.userId,
          ...finding.item.split('/').slice(area === 'files' ? 0 : 1),
        ].filter((n) => n !== '');
        let to = root;
        for (const name of names) to = store.child(to, name);
        await store.move(at, to);
        finding.repaired = true;
      }
    }
  }

  return {
    findings,
    users: users.length,
    rows: rowCount,
    hashed,
    lostAndFound,
    cancelled: stopped(),
  };
}

/**
 * Folders whose size is not the bytes of the live files below them, and the user's used space
 * when it is not the bytes of their files (the trash included) and versions.
 */
export function sizeDrift(
  rows: CheckedRow[],
  versions: Array<{ storedSize: number }>,
  usedBytes: number,
) {
  const below = new Map<string, number>();
  let used = 0;
  for (const r of rows) {
    if (r.isFolder) continue;
    used += r.size;
    if (r.trashId !== null) continue;
    // every ancestor folder: "/a/b/" is below "/a" and "/a/b"
    const names = r.path.split('/').filter((n) => n !== '');
    let key = '';
    for (const name of names) {
      key += `/${name}`;
      below.set(key, (below.get(key) ?? 0) + r.size);
    }
  }
  for (const v of versions) used += v.storedSize;
  const folders: Array<{ id: string; item: string; recorded: number; actual: number }> = [];
  for (const r of rows) {
    if (!r.isFolder || r.trashId !== null) continue;
    const item = `${r.path}${r.name}`;
    const actual = below.get(item) ?? 0;
    if (actual !== r.size) folders.push({ id: r.id, item: `${item}/`, recorded: r.size, actual });
  }
  return {
    folders,
    used: used !== usedBytes ? { recorded: usedBytes, actual: used } : null,
  };
}

/** Folder sizes of one user that drifted from their contents (the check's own calculation). */
export async function folderSizeDrift(db: Db, userId: string) {
  const repo = new CheckRepo(db);
  return sizeDrift(await repo.rowsOf(userId), [], 0).folders;
}

async function sha256(store: BlobStore, at: Place, signal?: AbortSignal): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of store.read(at)) {
      // leaving the loop closes the stream: a cancel does not wait for a large file's end
      if (signal?.aborted) return null;
      hash.update(chunk as Buffer);
    }
  } catch {
    return null;
  }
  return hash.digest('hex');
}

/** The findings as a text table, one line each, with a header. */
export function findingsTable(findings: Finding[]): string {
  const header = ['KIND', 'USER', 'ITEM', 'DETAIL', 'STATE'];
  const lines = findings.map((f) => [
    f.kind,
    f.user || '-',
    f.item,
    f.detail,
    f.repaired ? 'repaired' : 'named',
  ]);
  const widths = header.map((h, i) =>
    Math.min(60, Math.max(h.length, ...lines.map((l) => l[i]!.length))),
  );
  const row = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [row(header), ...lines.map(row)].join('\n');
}
