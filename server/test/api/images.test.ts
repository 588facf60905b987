import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { ErrorCode, type ImageFacts } from '@nimbus/contract';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, unlock, visitor } from '../share-fixtures.ts';
import { multipartBody } from '../upload-client.ts';

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp();

/** A 1200×800 JPEG whose camera says "turn me a quarter" (so it shows 800×1200). */
const photo = () =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: '#c33' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Nimbus', Model: 'Test Cam' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();

/** A HEIC photo as phones write them (HEVC inside), made by libheif's encoder. */
async function heicPhoto(width: number, height: number): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-heic-'));
  try {
    const png = path.join(dir, 'in.png');
    await sharp({ create: { width, height, channels: 3, background: '#2a6' } })
      .png()
      .toFile(png);
    execFileSync('heif-enc', ['-q', '60', png, '-o', path.join(dir, 'out.heic')]);
    return fs.readFileSync(path.join(dir, 'out.heic'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function bytes(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: `/api${url}`, headers });
  return { status: res.statusCode, body: res.rawPayload, headers: res.headers };
}
const own = (token: string) => ({ 'nimbus-token': token });

describe('thumbnails', () => {
  it('makes a 256 px WebP, upright, once, and answers again from the cache', async () => {
    const id = await putFile(t, owner(), '/', 'photo.jpg', await photo());
    const first = await bytes(`/view/thumbnail?id=${id}`, own(admin.token));
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('image/webp');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(first.body).metadata();
    expect(meta.format).toBe('webp');
    // the camera's orientation applied: the portrait photo stays portrait
    expect([meta.width, meta.height]).toEqual([171, 256]);

    const cache = t.app.services.blobs.cacheRoot('thumbnail');
    const made = await t.app.services.blobs.list(cache);
    expect(made.map((e) => e.name)).toEqual([expect.stringMatching(new RegExp(`^${id}-`))]);
    const again = await bytes(`/view/thumbnail?id=${id}`, {
      ...own(admin.token),
      'if-none-match': String(first.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(await t.app.services.blobs.list(cache)).toHaveLength(1);
    // an address naming the version is kept by the browser; one without is asked again
    expect(first.headers['cache-control']).toMatch(/must-revalidate/);
    const versioned = await bytes(`/view/thumbnail?id=${id}&v=1`, own(admin.token));
    expect(versioned.headers['cache-control']).toBe('private, max-age=604800, immutable');
    // an <img> carries the session in the query
    const byQuery = await bytes(`/view/thumbnail?id=${id}&nimbus-token=${admin.token}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.body.equals(first.body)).toBe(true);
  });

  it('goes with its file when the file is deleted for good', async () => {
    const id = await putFile(t, owner(), '/', 'gone.jpg', await photo());
    expect((await bytes(`/view/thumbnail?id=${id}`, own(admin.token))).status).toBe(200);
    const cache = t.app.services.blobs.cacheRoot('thumbnail');
    expect(await t.app.services.blobs.list(cache)).toHaveLength(1);
    const gone = await call(t.app, 'DELETE', '/delete', {
      token: admin.token,
      query: { fileIds: [id], sweep: 'true' },
    });
    expect(gone.body.code, gone.body.message).toBe(0);
    await vi.waitFor(async () => expect(await t.app.services.blobs.list(cache)).toHaveLength(0));
  });

  it('rasterises an SVG; never sends the drawing itself', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"><rect width="600" height="300" fill="#36c"/><script>alert(1)</script></svg>';
    const id = await putFile(t, owner(), '/', 'logo.svg', svg);
    const thumb = await bytes(`/view/thumbnail?id=${id}`, own(admin.token));
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.body.includes(Buffer.from('<svg'))).toBe(false);
    const meta = await sharp(thumb.body).metadata();
    expect([meta.width, meta.height]).toEqual([256, 128]);
  });

  it('has none for what is no image, markup named .png included', async () => {
    const fake = await putFile(t, owner(), '/', 'photo.png', '<html><script>x</script></html>');
    const text = await putFile(t, owner(), '/', 'a.txt', 'hello');
    for (const id of [fake, text]) {
      const res = await call(t.app, 'GET', '/view/thumbnail', {
        token: admin.token,
        query: { id },
      });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(ErrorCode.FILE_NOT_FOUND);
    }
    // viewing the fake photo sends it as a download, never as a page
    const view = await bytes(`/view/image?id=${fake}`, own(admin.token));
    expect(String(view.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(view.headers['content-type']).toBe('application/octet-stream');
  });

  it('never shows one user another user\u2019s pictures', async () => {
    const id = await putFile(t, owner(), '/', 'photo.jpg', await photo());
    const other = await makeUser(t.app, admin.token);
    for (const route of ['/view/thumbnail', '/view/image', '/view/cover', '/view/image/info']) {
      const res = await call(t.app, 'GET', route, { token: other.token, query: { id } });
      expect(res.status, route).toBe(404);
      expect(res.body.code, route).toBe(ErrorCode.FILE_NOT_FOUND);
    }
    const anonymous = await call(t.app, 'GET', '/view/thumbnail', { query: { id } });
    expect(anonymous.status).toBe(401);
  });
});

/** A one-page PDF with a dark box on it, written by hand. */
function onePagePdf(): Buffer {
  const content = '0 0 0.6 rg 50 50 300 400 re f';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 500] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

describe('covers', () => {
  it('draws a PDF\u2019s first page and a video\u2019s frame as their thumbnails', async () => {
    const pdf = await putFile(t, owner(), '/', 'paper.pdf', onePagePdf());
    const page = await bytes(`/view/thumbnail?id=${pdf}`, own(admin.token));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('image/webp');
    const meta = await sharp(page.body).metadata();
    expect([meta.width, meta.height]).toEqual([205, 256]);
    // the dark box is drawn where the page has it
    const { data } = await sharp(page.body).resize(4, 5, { fit: 'fill' }).raw().toBuffer({
      resolveWithObject: true,
    });
    expect(data[(2 * 4 + 1) * 3 + 2]).toBeGreaterThan(100);
    expect(data[(2 * 4 + 1) * 3]).toBeLessThan(60);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-video-'));
    try {
      const file = path.join(dir, 'clip.mp4');
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x240:rate=10:duration=2',
        '-pix_fmt',
        'yuv420p',
        file,
      ]);
      const video = await putFile(t, owner(), '/', 'clip.mp4', fs.readFileSync(file));
      const frame = await bytes(`/view/thumbnail?id=${video}`, own(admin.token));
      expect(frame.status).toBe(200);
      expect(frame.headers['content-type']).toBe('image/webp');
      expect((await sharp(frame.body).metadata()).width).toBe(256);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('viewing photos the browser cannot show', () => {
  it('converts HEIC to WebP, keeping its size', async () => {
    const id = await putFile(t, owner(), '/', 'IMG_0001.HEIC', await heicPhoto(640, 480));
    const view = await bytes(`/view/image?id=${id}`, own(admin.token));
    expect(view.status).toBe(200);
    expect(view.headers['content-type']).toBe('image/webp');
    const meta = await sharp(view.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 640, 480]);
    const thumb = await bytes(`/view/thumbnail?id=${id}`, own(admin.token));
    expect(thumb.status).toBe(200);
    expect((await sharp(thumb.body).metadata()).width).toBe(256);
    const info = await call<ImageFacts>(t.app, 'GET', '/view/image/info', {
      token: admin.token,
      query: { id },
    });
    expect(info.body.data).toMatchObject({ width: 640, height: 480, format: 'heic' });
  });

  it('converts TIFF to WebP and sends a JPEG as it is', async () => {
    const tiff = await sharp({
      create: { width: 300, height: 200, channels: 3, background: '#888' },
    })
      .tiff()
      .toBuffer();
    const tid = await putFile(t, owner(), '/', 'scan.tiff', tiff);
    const view = await bytes(`/view/image?id=${tid}`, own(admin.token));
    expect(view.headers['content-type']).toBe('image/webp');
    expect((await sharp(view.body).metadata()).width).toBe(300);
    const jpeg = await photo();
    const jid = await putFile(t, owner(), '/', 'photo.jpg', jpeg);
    const same = await bytes(`/view/image?id=${jid}`, own(admin.token));
    expect(same.headers['content-type']).toBe('image/jpeg');
    expect(same.body.equals(jpeg)).toBe(true);
  });
});

describe('what a photo says about itself', () => {
  it('records size and EXIF as the photo arrives', async () => {
    const id = await putFile(t, owner(), '/', 'photo.jpg', await photo());
    await t.app.services.images.settled();
    const row = await t.app.services.files.mustFind(admin.userId, id);
    const media = JSON.parse(row.media!) as { image: ImageFacts };
    expect(media.image).toMatchObject({
      width: 800,
      height: 1200,
      format: 'jpeg',
      exif: { make: 'Nimbus', model: 'Test Cam', orientation: 6 },
    });
    const info = await call<ImageFacts>(t.app, 'GET', '/view/image/info', {
      token: admin.token,
      query: { id },
    });
    expect(info.body.data).toEqual(media.image);
  });
});

describe('shares', () => {
  it('shows visitors the thumbnails of the share, without downloads too, and nothing else', async () => {
    await makeFolder(t, admin.token, '/', 'album');
    const inside = await putFile(t, owner(), '/album/', 'photo.jpg', await photo());
    const outside = await putFile(t, owner(), '/', 'private.jpg', await photo());
    const album = (await t.app.services.files.byPath(admin.userId, '/album')).id;
    const share = await makeShare(t, admin.token, {
      fileId: album,
      isFolder: true,
      isPrivacy: true,
      allowDownload: false,
    });
    const token = await unlock(t, share.shareId, share.extractionCode!);
    const headers = visitor(share.shareId, token);
    const thumb = await bytes(
      `/public/s/view/thumbnail?shareId=${share.shareId}&id=${inside}`,
      headers,
    );
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const view = await bytes(`/public/s/view/image?shareId=${share.shareId}&id=${inside}`, headers);
    expect(view.status).toBe(200);
    expect(view.headers['content-type']).toBe('image/jpeg');
    for (const route of ['thumbnail', 'image', 'cover']) {
      const res = await bytes(
        `/public/s/view/${route}?shareId=${share.shareId}&id=${outside}`,
        headers,
      );
      expect(res.status, route).toBeGreaterThanOrEqual(400);
      expect(res.headers['content-type'], route).toMatch(/json/);
    }
    // without the code, nothing
    const locked = await bytes(`/public/s/view/thumbnail?shareId=${share.shareId}&id=${inside}`);
    expect(locked.status).toBeGreaterThanOrEqual(400);
    expect(locked.headers['content-type']).toMatch(/json/);
  });
});

describe('WebP storage', () => {
  it('is off by default; when an administrator turns it on, new photos are kept as WebP', async () => {
    const off = await call<{ enable: boolean }>(t.app, 'GET', '/cloud/setting/webp', {
      token: admin.token,
    });
    expect(off.body.data).toEqual({ enable: false });
    const kept = await putFile(t, owner(), '/', 'kept.png', await photo());
    await t.app.services.images.settled();
    expect((await t.app.services.files.mustFind(admin.userId, kept)).name).toBe('kept.png');

    const user = await makeUser(t.app, admin.token);
    const refused = await call(t.app, 'PUT', '/cloud/setting/webp', {
      token: user.token,
      body: { enable: true },
    });
    expect(refused.status).toBe(403);
    const on = await call(t.app, 'PUT', '/cloud/setting/webp', {
      token: admin.token,
      body: { enable: true },
    });
    expect(on.body.code).toBe(0);

    const png = await sharp({
      create: { width: 1200, height: 900, channels: 3, background: '#4a7' },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const usedBefore = (await t.app.services.users.usage(admin.userId))!.space;
    const id = await putFile(t, owner(), '/', 'scan.png', png);
    await t.app.services.images.settled();
    const row = await t.app.services.files.mustFind(admin.userId, id);
    expect([row.name, row.suffix, row.contentType]).toEqual(['scan.webp', 'webp', 'image/webp']);
    expect(row.size).toBeLessThan(png.length);
    const onDisk = path.join(t.dataDir, 'files', ADMIN.username);
    expect(fs.existsSync(path.join(onDisk, 'scan.png'))).toBe(false);
    const stored = fs.readFileSync(path.join(onDisk, 'scan.webp'));
    expect(stored.length).toBe(row.size);
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1200, 900]);
    expect((await t.app.services.users.usage(admin.userId))!.space).toBe(usedBefore + row.size);
    // its facts are those of the WebP
    const info = await call<ImageFacts>(t.app, 'GET', '/view/image/info', {
      token: admin.token,
      query: { id },
    });
    expect(info.body.data).toMatchObject({ width: 1200, height: 900, format: 'webp' });
  });
});

describe('avatars', () => {
  it('draws a person\u2019s initial for anyone, and their chosen picture once set', async () => {
    const drawn = await bytes(`/view/thumbnail/user/${ADMIN.username}`);
    expect(drawn.status).toBe(200);
    expect(drawn.headers['content-type']).toBe('image/webp');
    const meta = await sharp(drawn.body).metadata();
    expect([meta.width, meta.height]).toEqual([128, 128]);

    const id = await putFile(t, owner(), '/', 'me.jpg', await photo());
    const chose = await call(t.app, 'PUT', '/user/avatar', {
      token: admin.token,
      query: { fileId: id },
    });
    expect(chose.body.code, chose.body.message).toBe(0);
    const chosen = await bytes(`/view/thumbnail/user/${ADMIN.username}`);
    expect(chosen.status).toBe(200);
    expect(chosen.body.equals(drawn.body)).toBe(false);
    expect((await sharp(chosen.body).metadata()).width).toBe(128);

    // not a picture, or not one's own: refused, the avatar stays
    const text = await putFile(t, owner(), '/', 'notes.txt', 'hello');
    const refused = await call(t.app, 'PUT', '/user/avatar', {
      token: admin.token,
      query: { fileId: text },
    });
    expect(refused.body.code).toBe(ErrorCode.BAD_PARAMETER);
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const theirs = await call(t.app, 'PUT', '/user/avatar', {
      token: bob.token,
      query: { fileId: id },
    });
    expect(theirs.status).toBe(404);

    // uploaded: kept in the Avatars folder of one's drive
    const { payload, contentType } = multipartBody({}, await photo(), 'face.jpg');
    const uploaded = await call<string>(t.app, 'POST', '/user/avatar/upload', {
      token: bob.token,
      body: payload,
      headers: { 'content-type': contentType },
    });
    expect(uploaded.body.code, uploaded.body.message).toBe(0);
    const list = await call<Array<{ id: string; name: string }>>(t.app, 'GET', '/list', {
      token: bob.token,
      query: { currentDirectory: '/Avatars' },
    });
    expect(list.body.data!.map((f) => f.id)).toEqual([uploaded.body.data]);
    const bobs = await bytes('/view/thumbnail/user/bob');
    expect(bobs.status).toBe(200);

    // a "picture" that is not one: taken as a file, drawn as the initial, never as what it is
    const fake = multipartBody({}, Buffer.from('<html><script>1</script></html>'), 'face.png');
    await call(t.app, 'POST', '/user/avatar/upload', {
      token: bob.token,
      body: fake.payload,
      headers: { 'content-type': fake.contentType },
    });
    const fallback = await bytes('/view/thumbnail/user/bob');
    expect(fallback.status).toBe(200);
    expect(fallback.headers['content-type']).toBe('image/webp');
    expect((await sharp(fallback.body).metadata()).format).toBe('webp');

    // a name nobody has: an initial like anyone's, so the answer tells no one who exists
    const nobody = await bytes('/view/thumbnail/user/nobody');
    expect(nobody.status).toBe(200);
    expect(nobody.headers['content-type']).toBe('image/webp');
    expect((await sharp(nobody.body).metadata()).width).toBe(128);
  });
});
