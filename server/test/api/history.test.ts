import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DRAFTS_MAX_CHARS,
  DRAFTS_PER_USER,
  ErrorCode,
  VERSION_PRUNE_AFTER_MS,
  type DocumentView,
  type HistoryText,
  type HistoryVersion,
  type SavedContent,
} from '@nimbus/contract';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { slowBodiesUntilRefused } from '../slow-bodies.ts';

// Versions of files and saving from a version (issue 12): every save keeps what it replaced,
// a save from a stale base is refused and loses nothing, a version comes back byte for byte.

const owner = () => ({ userId: admin.userId, username: ADMIN.username });
const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const disk = (...names: string[]) => path.join(t.dataDir, 'files', ADMIN.username, ...names);

const { t, admin } = useAdminApp();

const open = (fileId: string, token = admin.token) =>
  call<DocumentView>(t.app, 'GET', '/markdown/p', { token, query: { fileId } });

const save = (body: Record<string, unknown>, token = admin.token) =>
  call<SavedContent>(t.app, 'POST', '/markdown/edit', { token, body });

const versions = (fileId: string, pageIndex = 1, pageSize = 20) =>
  call<HistoryVersion[]>(t.app, 'GET', '/history/list', {
    token: admin.token,
    query: { fileId, pageIndex, pageSize },
  });

/** Ask again until `check` holds (half a minute at most: a busy machine is slow). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

const used = async () =>
  (await call<{ takeUpSpace: number }>(t.app, 'GET', '/user/info', { token: admin.token })).body
    .data!.takeUpSpace;

describe('saving documents', () => {
  it('keeps what each save replaced, newest first, and shows it', async () => {
    const id = await putFile(t, owner(), '/', 'notes.md', '# one');
    const opened = await open(id);
    expect(opened.body.data).toMatchObject({ contentText: '# one', hash: sha('# one') });

    const first = await save({ fileId: id, contentText: '# two', baseHash: sha('# one') });
    expect(first.body.code, first.body.message).toBe(0);
    expect(first.body.data).toMatchObject({ id, hash: sha('# two'), size: 5 });
    const second = await save({ fileId: id, contentText: '# three', baseHash: sha('# two') });
    expect(second.body.code).toBe(0);

    expect(fs.readFileSync(disk('notes.md'), 'utf8')).toBe('# three');
    const list = await versions(id);
    expect(list.body.count).toBe(2);
    expect(list.body.data!.map((v) => v.metadata.operator)).toEqual([
      ADMIN.username,
      ADMIN.username,
    ]);
    const texts = await Promise.all(
      list.body.data!.map(
        async (v) =>
          (
            await call<HistoryText>(t.app, 'GET', '/history/preview/text', {
              token: admin.token,
              query: { id: v.id, fileId: id },
            })
          ).body.data!.contentText,
      ),
    );
    expect(texts).toEqual(['# two', '# one']);
  });

  it('refuses the second of two saves from the same base, and loses neither', async () => {
    const id = await putFile(t, owner(), '/', 'plan.md', 'base');
    const base = sha('base');
    const mine = await save({ fileId: id, contentText: 'tab one', baseHash: base });
    expect(mine.body.code).toBe(0);
    const theirs = await save({ fileId: id, contentText: 'tab two', baseHash: base });
    expect(theirs.status).toBe(409);
    expect(theirs.body.code).toBe(ErrorCode.CHANGED_MEANWHILE);
    expect(theirs.body.data).toMatchObject({ hash: sha('tab one') });
    expect(fs.readFileSync(disk('plan.md'), 'utf8')).toBe('tab one');

    // "keep mine": the other tab's content is kept as a version, nothing is lost
    const forced = await save({ fileId: id, contentText: 'tab two', baseHash: base, force: true });
    expect(forced.body.code).toBe(0);
    expect(fs.readFileSync(disk('plan.md'), 'utf8')).toBe('tab two');
    const kept = await versions(id);
    const hashes = await Promise.all(
      kept.body.data!.map(async (v) =>
        sha(
          (
            await call<HistoryText>(t.app, 'GET', '/history/preview/text', {
              token: admin.token,
              query: { id: v.id },
            })
          ).body.data!.contentText,
        ),
      ),
    );
    expect(hashes).toEqual([sha('tab one'), base]);
  });

  it('saves as a new document when no file is named, and refuses what is too large', async () => {
    const made = await save({ filename: 'copy.md', currentDirectory: '/', contentText: 'copied' });
    expect(made.body.code, made.body.message).toBe(0);
    expect(fs.readFileSync(disk('copy.md'), 'utf8')).toBe('copied');
    const again = await save({ filename: 'copy.md', currentDirectory: '/', contentText: 'x' });
    expect(again.body.code).toBe(ErrorCode.EXISTS);
    const huge = await save({
      fileId: made.body.data!.id,
      contentText: 'x'.repeat(17 * 1024 * 1024),
    });
    expect(huge.status).toBe(422);
    expect(fs.readFileSync(disk('copy.md'), 'utf8')).toBe('copied');
  });

  it('saves text and code of any kind the text editor opens, one version per save', async () => {
    // kinds the server has no word for (Kotlin, a Dockerfile, a Ruby script) are text all the
    // same when an editor saves them: each save keeps what it replaced
    for (const name of ['Main.kt', 'Dockerfile', 'build.rb', 'notes.txt']) {
      const id = await putFile(t, owner(), '/', name, 'one');
      for (const [from, to] of [
        ['one', 'two'],
        ['two', 'three'],
      ] as const) {
        const saved = await save({ fileId: id, contentText: to, baseHash: sha(from) });
        expect(saved.body.code, `${name}: ${saved.body.message}`).toBe(0);
      }
      expect(fs.readFileSync(disk(name), 'utf8')).toBe('three');
      expect((await versions(id)).body.count, name).toBe(2);
      // a save from the first version now is a conflict, and changes nothing
      const stale = await save({ fileId: id, contentText: 'four', baseHash: sha('one') });
      expect(stale.status).toBe(409);
      expect(stale.body.code).toBe(ErrorCode.CHANGED_MEANWHILE);
      expect(stale.body.data).toMatchObject({ hash: sha('three') });
      expect(fs.readFileSync(disk(name), 'utf8')).toBe('three');
      expect((await versions(id)).body.count, name).toBe(2);
    }
  });

  it('refuses a text larger than a save carries, naming the field, and keeps the file', async () => {
    const id = await putFile(t, owner(), '/', 'big.log', 'small');
    const huge = await save({ fileId: id, contentText: 'x'.repeat(17 * 1024 * 1024) });
    expect(huge.status).toBe(422);
    expect(huge.body.message).toContain('contentText');
    expect(fs.readFileSync(disk('big.log'), 'utf8')).toBe('small');
    expect((await versions(id)).body.count).toBe(0);
  });

  it('round-trips a KityMinder .km file unchanged', async () => {
    const km = JSON.stringify(
      {
        root: {
          data: { id: 'c8x', created: 1700000000000, text: '中心主题', expandState: 'expand' },
          children: [{ data: { id: 'c8y', text: 'branch', priority: 1 }, children: [] }],
        },
        template: 'default',
        theme: 'fresh-blue',
        version: '1.4.43',
      },
      null,
      '\t',
    );
    const id = await putFile(t, owner(), '/', 'map.km', km);
    const opened = await open(id);
    expect(opened.body.data!.contentText).toBe(km);
    const saved = await save({
      fileId: id,
      contentText: opened.body.data!.contentText,
      baseHash: opened.body.data!.hash,
    });
    expect(saved.body.data!.hash).toBe(sha(km));
    expect(fs.readFileSync(disk('map.km'), 'utf8')).toBe(km);
    // the same bytes saved again are no new version
    expect((await versions(id)).body.count).toBe(0);
  });
});

describe('saving at once', () => {
  it('lets exactly one of many saves from the same base through, and loses none of them', async () => {
    const id = await putFile(t, owner(), '/', 'race.md', 'base');
    const texts = Array.from({ length: 20 }, (_, i) => `edit ${i}`);
    const answers = await Promise.all(
      texts.map((contentText) => save({ fileId: id, contentText, baseHash: sha('base') })),
    );
    const saved = answers.filter((a) => a.body.code === 0);
    expect(saved).toHaveLength(1);
    expect(answers.filter((a) => a.body.code === ErrorCode.CHANGED_MEANWHILE)).toHaveLength(19);
    // what stands is the one that got through; the base it replaced is a version
    const winner = texts.find((text) => sha(text) === saved[0]!.body.data!.hash)!;
    expect(fs.readFileSync(disk('race.md'), 'utf8')).toBe(winner);
    const [kept] = (await versions(id)).body.data!;
    const text = await call<HistoryText>(t.app, 'GET', '/history/preview/text', {
      token: admin.token,
      query: { id: kept!.id },
    });
    expect(text.body.data!.contentText).toBe('base');
  });
});

describe('drafts', () => {
  it('keeps unsaved text per person without touching the file, until a save', async () => {
    const id = await putFile(t, owner(), '/', 'draft.md', '# saved');
    const kept = await save({ fileId: id, contentText: '# typing…', draft: true });
    expect(kept.body.code, kept.body.message).toBe(0);
    expect(fs.readFileSync(disk('draft.md'), 'utf8')).toBe('# saved');
    expect((await versions(id)).body.count).toBe(0);
    const opened = await open(id);
    expect(opened.body.data!.draft).toMatchObject({
      contentText: '# typing…',
      baseHash: sha('# saved'),
    });

    // a save ends the draft
    await save({ fileId: id, contentText: '# typed', baseHash: sha('# saved') });
    expect((await open(id)).body.data!.draft).toBeNull();

    // discarded by hand
    await save({ fileId: id, contentText: '# again', draft: true });
    const dropped = await call(t.app, 'DELETE', '/markdown/deleteDraft', {
      token: admin.token,
      query: { fileId: id },
    });
    expect(dropped.body.code).toBe(0);
    expect((await open(id)).body.data!.draft).toBeNull();

    // a draft has a limit of its own
    const huge = await save({ fileId: id, contentText: 'x'.repeat(3 * 1024 * 1024), draft: true });
    expect(huge.body.code).toBe(ErrorCode.BAD_PARAMETER);
    expect((await open(id)).body.data!.draft).toBeNull();
  });
});

describe('drafts of many documents', () => {
  const draftOf = async (id: string) => (await open(id)).body.data!.draft;

  it(`keeps a person\u2019s newest ${DRAFTS_PER_USER} drafts, and at most ${DRAFTS_MAX_CHARS / 1024 / 1024} M characters of them`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < DRAFTS_PER_USER + 2; i++) {
      const id = await putFile(t, owner(), '/', `doc-${i}.md`, `# ${i}`);
      ids.push(id);
      expect((await save({ fileId: id, contentText: `draft ${i}`, draft: true })).body.code).toBe(
        0,
      );
      // each draft a moment after the one before: "newest" is well defined
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    // the two left longest untouched went; the newest stayed
    expect(await draftOf(ids[0]!)).toBeNull();
    expect(await draftOf(ids[1]!)).toBeNull();
    expect(await draftOf(ids[2]!)).toMatchObject({ contentText: 'draft 2' });
    expect(await draftOf(ids.at(-1)!)).toMatchObject({
      contentText: `draft ${DRAFTS_PER_USER + 1}`,
    });
    // another person's drafts are theirs to count
    const bob = await makeUser(t.app, admin.token);
    const bobs = await putFile(
      t,
      { userId: bob.userId, username: bob.username },
      '/',
      'bob.md',
      '# bob',
    );
    expect(
      (await save({ fileId: bobs, contentText: 'mine', draft: true }, bob.token)).body.code,
    ).toBe(0);
    expect(await draftOf(ids[2]!)).not.toBeNull();

    // large drafts: the characters they hold together are bounded too
    const big = 'x'.repeat(2 * 1000 * 1000);
    const larges: string[] = [];
    for (let i = 0; i < 9; i++) {
      const id = ids[10 + i]!;
      larges.push(id);
      expect((await save({ fileId: id, contentText: big, draft: true })).body.code).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    // 9 × 2 M characters is more than the bound: the oldest large one went, the newest stayed
    expect(await draftOf(larges[0]!)).toBeNull();
    expect(await draftOf(larges[8]!)).toMatchObject({ contentText: big });
  });
});

describe('saving large documents at once', () => {
  it('refuses a save beyond the bytes held in memory by saves under way, then takes it again', async () => {
    const id = await putFile(t, owner(), '/', 'big.md', '# big');
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const post = () =>
      fetch(`${base}/api/markdown/edit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'nimbus-token': admin.token },
        body: JSON.stringify({ fileId: id, contentText: '# small', force: true }),
      });
    // saves that announce the largest body and send it slowly, until one is refused
    const slow = await slowBodiesUntilRefused(base, {
      path: '/api/markdown/edit',
      headers: { 'nimbus-token': admin.token },
      length: 24 * 1024 * 1024,
    });
    try {
      expect(slow.refused).toBe(true);
      // the four before it hold the whole allowance
      expect(slow.held).toBeGreaterThanOrEqual(4);
      const busy = await post();
      expect(busy.status).toBe(429);
      expect(((await busy.json()) as { code: number }).code).toBe(ErrorCode.TOO_MANY_REQUESTS);
    } finally {
      // the slow senders give up: what they held is free again
      slow.close();
    }
    await until(async () => (await post()).status === 200, 'saves are taken again');
    expect(fs.readFileSync(disk('big.md'), 'utf8')).toBe('# small');
  });
});

describe('versions', () => {
  it('brings a version back byte for byte, keeping the current content as a version', async () => {
    const original = '第一版\r\nline two\u0000 with a NUL';
    const id = await putFile(t, owner(), '/', 'a.txt', original);
    await save({ fileId: id, contentText: 'second' });
    const [v] = (await versions(id)).body.data!;
    const back = await call<SavedContent>(t.app, 'PUT', '/history/recovery', {
      token: admin.token,
      query: { id: v!.id, fileId: id },
    });
    expect(back.body.code, back.body.message).toBe(0);
    expect(back.body.data!.hash).toBe(sha(original));
    expect(fs.readFileSync(disk('a.txt'))).toEqual(Buffer.from(original));
    const after = await versions(id);
    expect(after.body.count).toBe(2);
    // the raw bytes of a version are a download, never shown inline
    const raw = await t.app.inject({
      method: 'GET',
      url: `/api/history/preview/file?id=${v!.id}&fileId=${id}`,
      headers: { 'nimbus-token': admin.token },
    });
    expect(raw.rawPayload).toEqual(Buffer.from(original));
    expect(raw.headers['content-disposition']).toMatch(/^attachment/);
  });

  it('follow the file through a rename and a move', async () => {
    const id = await putFile(t, owner(), '/', 'old.md', 'one');
    await save({ fileId: id, contentText: 'two' });
    await call(t.app, 'GET', '/rename', {
      token: admin.token,
      query: { id, newFileName: 'new.md' },
    });
    const folder = await call<{ id: string }>(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { currentDirectory: '/', filename: 'sub' },
    });
    await call(t.app, 'GET', '/move', {
      token: admin.token,
      query: { froms: [id], to: folder.body.data!.id },
    });
    const byPath = await call<HistoryVersion[]>(t.app, 'GET', '/history/path/list', {
      token: admin.token,
      query: { path: '/sub/new.md' },
    });
    expect(byPath.body.count).toBe(1);
    expect(byPath.body.data![0]!.filename).toBe('old.md');
  });

  it('pages 45 versions 20 at a time', async () => {
    const id = await putFile(t, owner(), '/', 'many.md', 'v0');
    await t.app.services.settings.set('versionsPerFile', 100);
    for (let i = 1; i <= 45; i++) await save({ fileId: id, contentText: `v${i}` });
    const pages = [await versions(id, 1), await versions(id, 2), await versions(id, 3)];
    expect(pages.map((p) => p.body.data!.length)).toEqual([20, 20, 5]);
    expect(pages.map((p) => p.body.count)).toEqual([45, 45, 45]);
    const ids = pages.flatMap((p) => p.body.data!.map((v) => v.id));
    expect(new Set(ids).size).toBe(45);
  });

  it('keep at most the configured number per file once older than a day, oldest going first', async () => {
    await t.app.services.settings.set('versionsPerFile', 3);
    const id = await putFile(t, owner(), '/', 'few.md', 'v0');
    const folder = path.join(t.dataDir, 'versions', admin.userId, id);
    // a burst: every version younger than a day stays, whatever the count
    for (let i = 1; i <= 5; i++) await save({ fileId: id, contentText: `v${i}` });
    expect((await versions(id)).body.count).toBe(5);
    expect(fs.readdirSync(folder)).toHaveLength(5);

    // a day and a minute later, the next save prunes down to the newest 3, oldest first
    await t.database.db
      .updateTable('fileVersion')
      .set((eb) => ({ createdAt: eb('createdAt', '-', VERSION_PRUNE_AFTER_MS + 60_000) }))
      .where('fileId', '=', id)
      .execute();
    const spaceBefore = await used();
    await save({ fileId: id, contentText: 'v6' });
    const list = await versions(id);
    expect(list.body.count).toBe(3);
    const texts = await Promise.all(
      list.body.data!.map(
        async (v) =>
          (
            await call<HistoryText>(t.app, 'GET', '/history/preview/text', {
              token: admin.token,
              query: { id: v.id },
            })
          ).body.data!.contentText,
      ),
    );
    expect(texts).toEqual(['v5', 'v4', 'v3']);
    expect(fs.readdirSync(folder)).toHaveLength(3);
    // the space of the pruned ones comes back
    expect(await used()).toBeLessThan(spaceBefore);
  });

  it('count in the space used, and go with the file when it is deleted for good', async () => {
    const id = await putFile(t, owner(), '/', 'big.txt', 'a'.repeat(100_000));
    const before = await used();
    await save({ fileId: id, contentText: 'b'.repeat(100_000) });
    const withVersion = await used();
    expect(withVersion).toBeGreaterThan(before);
    expect(withVersion - before).toBeLessThan(5_000);
    await call(t.app, 'DELETE', '/delete', { token: admin.token, query: { fileIds: [id] } });
    const swept = await call(t.app, 'DELETE', '/sweep', {
      token: admin.token,
      query: { fileIds: [id] },
    });
    expect(swept.body.code, swept.body.message).toBe(0);
    expect(await used()).toBe(0);
    expect(fs.existsSync(path.join(t.dataDir, 'versions', admin.userId, id))).toBe(false);

    // deleted for good at once, without passing through the trash
    const other = await putFile(t, owner(), '/', 'other.md', 'x'.repeat(50_000));
    await save({ fileId: other, contentText: 'y'.repeat(50_000) });
    const gone = await call(t.app, 'DELETE', '/delete', {
      token: admin.token,
      query: { fileIds: [other], sweep: 'true' },
    });
    expect(gone.body.code, gone.body.message).toBe(0);
    expect(await used()).toBe(0);
    expect(fs.existsSync(path.join(t.dataDir, 'versions', admin.userId, other))).toBe(false);
  });

  it("are the owner's alone", async () => {
    const id = await putFile(t, owner(), '/', 'mine.md', 'secret');
    await save({ fileId: id, contentText: 'secret 2' });
    const [v] = (await versions(id)).body.data!;
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    expect((await open(id, bob.token)).status).toBe(404);
    expect((await save({ fileId: id, contentText: 'x' }, bob.token)).status).toBe(404);
    const peek = await call(t.app, 'GET', '/history/preview/text', {
      token: bob.token,
      query: { id: v!.id },
    });
    expect(peek.status).toBe(404);
    const list = await call(t.app, 'GET', '/history/list', {
      token: bob.token,
      query: { fileId: id },
    });
    expect(list.status).toBe(404);
    expect(fs.readFileSync(disk('mine.md'), 'utf8')).toBe('secret 2');
  });
});
