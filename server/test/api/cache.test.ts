import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { JOB_CACHE_SWEEP } from '../../src/modules/cache/cache.jobs.ts';
import type { CacheKind, Place } from '../../src/storage/blob-store.ts';
import {
  ADMIN,
  call,
  makeTestApp,
  makeUser,
  putFile,
  setupAdmin,
  type TestApp,
} from '../harness.ts';

// The caches of derived files: what was made of content that is gone leaves them, and they keep
// to NIMBUS_CACHE_MAX_BYTES, the least recently used entries going first.

let t: TestApp;
let admin: { token: string; userId: string };
const owner = () => ({ userId: admin.userId, username: ADMIN.username });

async function start(overrides: Partial<Config> = {}) {
  t = await makeTestApp(overrides);
  admin = await setupAdmin(t.app);
}
afterEach(async () => {
  await t.app.services.images.settled();
  await t.close();
});

const HOUR = 3600_000;

const picture = (background: string) =>
  sharp({ create: { width: 600, height: 400, channels: 3, background } })
    .jpeg()
    .toBuffer();

async function get(url: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api${url}`,
    headers: { 'nimbus-token': admin.token },
  });
  return { status: res.statusCode, body: res.rawPayload };
}

/** New bytes over a file, as a WebDAV client saves it (the file keeps its id). */
async function overwrite(name: string, content: Buffer | string) {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/webdav/${encodeURIComponent(name)}`,
    headers: {
      authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`,
    },
    payload: content,
  });
  expect(res.statusCode).toBe(204);
}

/** New bytes written into the user's tree on disk, then the index rebuild of the drive's root. */
async function changeOnDisk(name: string, content: Buffer | string) {
  const file = path.join(t.dataDir, 'files', ADMIN.username, name);
  fs.writeFileSync(file, content);
  // a date apart from the first bytes': the rebuild compares size and date
  fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
  const res = await call<{ taskId: string }>(t.app, 'GET', '/user/setting/sync', {
    token: admin.token,
    query: { path: '/' },
  });
  expect(res.body.code, res.body.message).toBe(0);
  const job = await t.app.services.jobs.waitFor(res.body.data!.taskId, 60_000);
  expect(job.state, job.message ?? '').toBe('done');
}

const blobs = () => t.app.services.blobs;
const names = async (kind: CacheKind) =>
  (await blobs().list(blobs().cacheRoot(kind))).map((e) => e.name).sort();

/** Every entry of a cache made `ms` earlier (as if made then and not used since). */
async function age(kind: CacheKind, ms: number, only?: (name: string) => boolean) {
  const root = blobs().cacheRoot(kind);
  for (const { name } of await blobs().list(root))
    if (!only || only(name)) await blobs().setModified(blobs().child(root, name), Date.now() - ms);
}

describe('the cache sweep', () => {
  it('removes the thumbnail and viewing copy of a picture’s earlier content and keeps the current ones', async () => {
    await start();
    const id = await putFile(t, owner(), '/', 'photo.jpg', await picture('#c33'));
    expect((await get(`/view/thumbnail?id=${id}`)).status).toBe(200);
    const svg = (fill: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="300" height="200" fill="${fill}"/></svg>`;
    const drawing = await putFile(t, owner(), '/', 'drawing.svg', svg('#36c'));
    expect((await get(`/view/image?id=${drawing}`)).status).toBe(200);
    const [oldThumbnail] = await names('thumbnail');
    const [oldView] = await names('image');

    // pictures changed on disk outside Nimbus, found by the index rebuild (they keep their ids)
    await changeOnDisk('photo.jpg', await picture('#3c3'));
    await changeOnDisk('drawing.svg', svg('#c63'));
    expect((await get(`/view/thumbnail?id=${id}`)).status).toBe(200);
    expect((await get(`/view/image?id=${drawing}`)).status).toBe(200);
    expect(await names('thumbnail')).toHaveLength(2);
    expect(await names('image')).toHaveLength(2);

    // just made: nothing is touched (it may be in the middle of being served)
    const now = await t.app.services.cache.sweep();
    expect(now.stale.entries).toBe(0);
    expect(await names('thumbnail')).toHaveLength(2);

    await age('thumbnail', HOUR);
    await age('image', HOUR);
    const swept = await t.app.services.cache.sweep();
    expect(swept.stale.entries).toBe(2);
    const thumbnails = await names('thumbnail');
    expect(thumbnails).toHaveLength(1);
    expect(thumbnails).not.toContain(oldThumbnail);
    expect(thumbnails[0]).toMatch(new RegExp(`^${id}-`));
    const views = await names('image');
    expect(views).toHaveLength(1);
    expect(views).not.toContain(oldView);

    // the kept ones are still what is served, without being made again
    const kept = thumbnails[0]!;
    const before = await blobs().stat(blobs().cached('thumbnail', kept));
    const again = await get(`/view/thumbnail?id=${id}`);
    expect(again.status).toBe(200);
    expect(await names('thumbnail')).toEqual([kept]);
    const meta = await sharp(again.body).metadata();
    expect(meta.format).toBe('webp');
    // served from the cache: marked as used now (the size bound goes by it)
    await expect
      .poll(async () => (await blobs().stat(blobs().cached('thumbnail', kept)))?.mtimeMs)
      .toBeGreaterThan(before!.mtimeMs + HOUR / 2);
  });

  // two real LibreOffice conversions: a minute on a busy machine
  it('removes an office document’s PDF and first page once its content changed', async () => {
    await start();
    const rtf = (text: string) =>
      `{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Arial;}} \\f0 ${text}\\par}`;
    const id = await putFile(t, owner(), '/', 'notes.rtf', rtf('First draft of the notes'));
    const pdf = await get(`/preview/office?id=${id}`);
    expect(pdf.status).toBe(200);
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    // the grid's tile: the first page drawn from the PDF, then its thumbnail
    expect((await get(`/view/thumbnail?id=${id}`)).status).toBe(200);
    expect(await names('office')).toHaveLength(1);
    expect(await names('cover')).toEqual([expect.stringMatching(/-page1\.png$/)]);
    expect(await names('thumbnail')).toHaveLength(1);

    // a second, unchanged document keeps all of its own
    const other = await putFile(t, owner(), '/', 'other.rtf', rtf('Another document'));
    expect((await get(`/preview/office?id=${other}`)).status).toBe(200);

    await overwrite('notes.rtf', rtf('Second draft of the notes'));
    for (const kind of ['office', 'cover', 'thumbnail'] as const) await age(kind, HOUR);
    const swept = await t.app.services.cache.sweep();
    expect(swept.stale.entries).toBe(3);
    expect(await names('office')).toEqual([expect.stringMatching(new RegExp(`^${other}-`))]);
    expect(await names('cover')).toEqual([]);
    expect(await names('thumbnail')).toEqual([]);
  }, 90_000);

  it('removes what was made of files whose rows are gone (their owner deleted)', async () => {
    await start();
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const bobs = await putFile(t, bob, '/', 'holiday.jpg', await picture('#39c'));
    const mine = await putFile(t, owner(), '/', 'mine.jpg', await picture('#c93'));
    const thumbnail = (id: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/view/thumbnail?id=${id}`,
        headers: { 'nimbus-token': id === bobs ? bob.token : admin.token },
      });
    expect((await thumbnail(bobs)).statusCode).toBe(200);
    expect((await thumbnail(mine)).statusCode).toBe(200);
    // an entry no file ever had, named like one
    await blobs().write(
      blobs().cached('image', '00000000-0000-4000-8000-000000000000-abc.webp'),
      Buffer.from('x'),
    );
    // an entry of no file (a person's initial): only the size bound ever removes it
    expect((await get(`/view/thumbnail/user/${ADMIN.username}`)).status).toBe(200);

    const del = await call(t.app, 'DELETE', '/user/delete', {
      token: admin.token,
      query: { ids: [bob.userId] },
    });
    expect(del.body.code).toBe(0);
    expect(await names('thumbnail')).toHaveLength(3);

    await age('thumbnail', HOUR);
    await age('image', HOUR);
    const swept = await t.app.services.cache.sweep();
    expect(swept.stale.entries).toBe(2);
    const left = await names('thumbnail');
    expect(left).toHaveLength(2);
    expect(left.some((n) => n.startsWith(`${mine}-`))).toBe(true);
    expect(left.some((n) => n.startsWith('avatar-initial-'))).toBe(true);
    expect(await names('image')).toEqual([]);
  });

  it('keeps to its bound: the least recently used entries go, an HLS rendition whole', async () => {
    await start({ cacheMaxBytes: 6000 });
    const put = (kind: CacheKind, key: string, bytes: number) =>
      blobs().write(blobs().cached(kind, key), Buffer.alloc(bytes, 1));
    const stamp = (place: Place, ms: number) => blobs().setModified(place, Date.now() - ms);
    // the oldest: a rendition of two parts (4000 bytes all told)
    const rendition = blobs().cached('hls', 'rendition-of-a-video');
    await blobs().makeFolder(rendition);
    for (const part of ['video.m3u8', 'video-0.ts'])
      await blobs().write(blobs().child(rendition, part), Buffer.alloc(2000, 1));
    await stamp(rendition, 4 * HOUR);
    await put('text', 'older-entry', 3000);
    await stamp(blobs().cached('text', 'older-entry'), 3 * HOUR);
    // two thumbnails of files that exist, used two and one hour ago
    const a = await putFile(t, owner(), '/', 'a.jpg', await picture('#a33'));
    const b = await putFile(t, owner(), '/', 'b.jpg', await picture('#3a3'));
    expect((await get(`/view/thumbnail?id=${a}`)).status).toBe(200);
    expect((await get(`/view/thumbnail?id=${b}`)).status).toBe(200);
    await age('thumbnail', 2 * HOUR, (n) => n.startsWith(`${a}-`));
    await age('thumbnail', HOUR, (n) => n.startsWith(`${b}-`));
    // the newest, just written
    await put('text', 'newest-entry', 3000);
    const thumbnails = await names('thumbnail');
    let thumbnailBytes = 0;
    for (const n of thumbnails)
      thumbnailBytes += (await blobs().stat(blobs().cached('thumbnail', n)))!.size;
    expect(thumbnailBytes).toBeLessThan(1000);

    const swept = await t.app.services.cache.sweep();
    expect(swept.stale.entries).toBe(0);
    // 10,000 bytes and the thumbnails, over 6,000: down to 90 % (5,400), oldest first
    expect(swept.evicted).toEqual({ entries: 2, bytes: 7000 });
    expect(swept.kept).toEqual({ entries: 3, bytes: 3000 + thumbnailBytes });
    expect(await blobs().exists(rendition)).toBe(false);
    expect(await names('text')).toEqual(['newest-entry']);
    expect(await names('thumbnail')).toEqual(thumbnails);

    // the background job sweeps the same way; under the bound, nothing more goes
    const { jobs } = t.app.services;
    const job = await jobs.waitFor(
      await jobs.enqueue(JOB_CACHE_SWEEP, {}, { userId: null }),
      60_000,
    );
    expect(job.state, job.message ?? '').toBe('done');
    expect(await names('text')).toEqual(['newest-entry']);
    expect(await names('thumbnail')).toEqual(thumbnails);
  });

  it('lets requests race a sweep that empties the cache: each gets a picture or a not-found, none an error', async () => {
    await start({ cacheMaxBytes: 1 });
    const ids: string[] = [];
    for (const colour of ['#a11', '#1a1', '#11a', '#aa1'])
      ids.push(await putFile(t, owner(), '/', `${colour.slice(1)}.jpg`, await picture(colour)));
    for (const id of ids) expect((await get(`/view/thumbnail?id=${id}`)).status).toBe(200);

    const requests = Array.from({ length: 24 }, (_, i) => get(`/view/thumbnail?id=${ids[i % 4]}`));
    // a clock hours ahead: every entry is old enough to go
    const sweeps = [1, 2, 3].map(() => t.app.services.cache.sweep({ now: Date.now() + HOUR }));
    const answers = await Promise.all(requests);
    await Promise.all(sweeps);
    expect((await sweeps[0])!.evicted.entries).toBeGreaterThan(0);
    for (const answer of answers) expect([200, 404]).toContain(answer.status);
    // the next request makes the thumbnail again
    for (const id of ids) expect((await get(`/view/thumbnail?id=${id}`)).status).toBe(200);
  });
});

describe('NIMBUS_CACHE_MAX_BYTES', () => {
  it('is read, validated and defaults to 10 GiB', async () => {
    const { loadConfig } = await import('../../src/config.ts');
    expect(loadConfig({}).cacheMaxBytes).toBe(10 * 1024 ** 3);
    expect(loadConfig({ NIMBUS_CACHE_MAX_BYTES: '0' }).cacheMaxBytes).toBe(0);
    expect(() => loadConfig({ NIMBUS_CACHE_MAX_BYTES: '-1' })).toThrow(/NIMBUS_CACHE_MAX_BYTES/);
    expect(() => loadConfig({ NIMBUS_CACHE_MAX_BYTES: 'lots' })).toThrow(/NIMBUS_CACHE_MAX_BYTES/);
    // a start with it: the app comes up as usual
    await start({ cacheMaxBytes: 0 });
    expect((await t.app.services.cache.sweep()).evicted.entries).toBe(0);
  });
});
