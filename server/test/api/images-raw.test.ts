import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ErrorCode, type ImageFacts } from '@nimbus/contract';
import { ADMIN, call, putFile, useAdminApp } from '../harness.ts';
import { linearDng, rgbPsd } from '../image-fixtures.ts';

// Camera RAW photos (developed by dcraw) and Photoshop documents (their composite picture, read
// by ffmpeg): thumbnails and the gallery's WebP, made by the real programs from files built here.

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp();

async function bytes(url: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api${url}`,
    headers: { 'nimbus-token': admin.token },
  });
  return { status: res.statusCode, body: res.rawPayload, headers: res.headers };
}

/** A WebP's size and its mean colour. */
async function picture(body: Buffer) {
  const meta = await sharp(body).metadata();
  const { channels } = await sharp(body).stats();
  const [r = 0, g = 0, b = 0] = channels.map((c) => Math.round(c.mean));
  return { format: meta.format, width: meta.width, height: meta.height, rgb: [r, g, b] as const };
}

const info = async (id: string) =>
  (
    await call<ImageFacts | null>(t.app, 'GET', '/view/image/info', {
      token: admin.token,
      query: { id },
    })
  ).body.data;

const red: [number, number, number] = [60000, 8000, 8000];

describe('camera RAW photos', () => {
  it('are developed into a thumbnail and a WebP for the gallery, whatever the suffix case', async () => {
    const id = await putFile(
      t,
      owner(),
      '/',
      'IMG_0001.DNG',
      linearDng({ width: 64, height: 48, rgb: red }),
    );
    const row = await t.app.services.files.mustFind(admin.userId, id);
    expect(row.fileType).toBe('image');

    const thumb = await bytes(`/view/thumbnail?id=${id}`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const small = await picture(thumb.body);
    // never enlarged: the photo is smaller than a thumbnail
    expect(small).toMatchObject({ format: 'webp', width: 64, height: 48 });
    expect(small.rgb[0]).toBeGreaterThan(small.rgb[1] + 100);
    expect(small.rgb[0]).toBeGreaterThan(small.rgb[2] + 100);

    const view = await bytes(`/view/image?id=${id}`);
    expect(view.status).toBe(200);
    expect(view.headers['content-type']).toBe('image/webp');
    const large = await picture(view.body);
    expect(large).toMatchObject({ format: 'webp', width: 64, height: 48 });
    expect(large.rgb[0]).toBeGreaterThan(large.rgb[1] + 100);

    expect(await info(id)).toMatchObject({
      width: 64,
      height: 48,
      format: 'dng',
      exif: { model: expect.stringContaining('Nimbus') as string },
    });
  });

  it('take the thumbnail from the camera’s embedded preview, and the view from the photo itself', async () => {
    // the preview is green and the photo red: each picture tells where it came from
    const jpeg = await sharp({
      create: { width: 400, height: 300, channels: 3, background: '#0a0' },
    })
      .jpeg()
      .toBuffer();
    const dng = linearDng({
      width: 640,
      height: 480,
      rgb: red,
      preview: { jpeg, width: 400, height: 300 },
    });
    const id = await putFile(t, owner(), '/', 'DSC_0002.dng', dng);

    const thumb = await picture((await bytes(`/view/thumbnail?id=${id}`)).body);
    expect(thumb).toMatchObject({ format: 'webp', width: 256, height: 192 });
    expect(thumb.rgb[1]).toBeGreaterThan(thumb.rgb[0] + 100);

    const view = await picture((await bytes(`/view/image?id=${id}`)).body);
    expect(view).toMatchObject({ format: 'webp', width: 640, height: 480 });
    expect(view.rgb[0]).toBeGreaterThan(view.rgb[1] + 100);
  });
});

describe('Photoshop documents', () => {
  it('show their composite picture as a thumbnail and in the gallery', async () => {
    const id = await putFile(t, owner(), '/', 'poster.PSD', rgbPsd(300, 200, [30, 60, 220]));
    const thumb = await bytes(`/view/thumbnail?id=${id}`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const small = await picture(thumb.body);
    expect(small).toMatchObject({ format: 'webp', width: 256, height: 171 });
    expect(small.rgb[2]).toBeGreaterThan(small.rgb[0] + 100);

    const view = await bytes(`/view/image?id=${id}`);
    expect(view.headers['content-type']).toBe('image/webp');
    const large = await picture(view.body);
    expect(large).toMatchObject({ format: 'webp', width: 300, height: 200 });
    expect(large.rgb[2]).toBeGreaterThan(large.rgb[1] + 100);

    expect(await info(id)).toEqual({ width: 300, height: 200, format: 'psd' });
  });
});

describe('files that only have the name', () => {
  it('have no thumbnail, view as a download, and the server keeps answering', async () => {
    const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));
    // a TIFF header with nothing behind it reaches dcraw, which cannot read it
    const tiffHead = Buffer.concat([Buffer.from('II*\0', 'latin1'), noise]);
    const broken = {
      'noise.dng': noise,
      'header-only.CR2': tiffHead,
      'document.nef': rgbPsd(8, 8, [1, 2, 3]),
      'noise.psd': noise,
      'photo.psd': linearDng({ width: 8, height: 8, rgb: red }),
      'cut.psd': rgbPsd(300, 200, [1, 2, 3]).subarray(0, 40),
      'markup.arw': '<html><script>alert(1)</script></html>',
    };
    for (const [name, content] of Object.entries(broken)) {
      const id = await putFile(t, owner(), '/', name, content);
      const thumb = await call(t.app, 'GET', '/view/thumbnail', {
        token: admin.token,
        query: { id },
      });
      expect(thumb.status, name).toBe(404);
      expect(thumb.body.code, name).toBe(ErrorCode.FILE_NOT_FOUND);
      const view = await bytes(`/view/image?id=${id}`);
      expect(view.status, name).toBe(200);
      expect(String(view.headers['content-disposition']), name).toMatch(/^attachment;/);
      expect(view.headers['content-type'], name).toBe('application/octet-stream');
      // a cut document still has its header, and the size it tells
      const facts = await info(id);
      if (name === 'cut.psd') expect(facts).toEqual({ width: 300, height: 200, format: 'psd' });
      else expect(facts, name).toBeNull();
    }
    const good = await putFile(t, owner(), '/', 'good.psd', rgbPsd(40, 20, [200, 10, 10]));
    expect((await bytes(`/view/thumbnail?id=${good}`)).status).toBe(200);
  });
});
