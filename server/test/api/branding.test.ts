import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { WebsiteRecord } from '@nimbus/contract';
import { call, makeUser, useAdminApp } from '../harness.ts';
import { multipartBody } from '../upload-client.ts';

const { t, admin } = useAdminApp();

function uploadLogo(token: string, bytes: Buffer, filename: string) {
  const { payload, contentType } = multipartBody({}, bytes, filename);
  return call<string>(t.app, 'POST', '/user/setting/upload_logo', {
    token,
    body: payload,
    headers: { 'content-type': contentType },
  });
}

const SVG_WITH_SCRIPT = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">' +
    '<script>alert(document.cookie)</script>' +
    '<a href="javascript:alert(1)"><rect width="64" height="64" fill="#3366ff"/></a></svg>',
);

describe('the disk logo', () => {
  it('is redrawn as a PNG: an SVG’s script never reaches a browser', async () => {
    const res = await uploadLogo(admin.token, SVG_WITH_SCRIPT, 'logo.svg');
    expect(res.body.code, res.body.message).toBe(0);
    const logo = res.body.data!;
    expect(logo).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(logo.split(',')[1]!, 'base64');
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe('png');
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(256);
    expect(png.toString('latin1')).not.toContain('script');

    // shown to visitors on the sign-in page
    const record = await call<WebsiteRecord>(t.app, 'GET', '/public/website/record');
    expect(record.body.data!.netdiskLogo).toBe(logo);
  });

  it('takes JPEG and PNG, and refuses other kinds, lies and anything over 128 KB', async () => {
    const jpeg = await sharp({
      create: { width: 400, height: 200, channels: 3, background: '#ff8800' },
    })
      .jpeg()
      .toBuffer();
    expect((await uploadLogo(admin.token, jpeg, 'brand.JPG')).body.code).toBe(0);

    const gif = await uploadLogo(admin.token, jpeg, 'brand.gif');
    expect(gif.status).toBe(422);
    expect(gif.body.message).toMatch(/SVG, JPG, JPEG or PNG/);

    const notAnImage = await uploadLogo(admin.token, Buffer.from('hello'), 'brand.png');
    expect(notAnImage.status).toBe(422);
    expect(notAnImage.body.message).toMatch(/cannot be read|can be read/);

    const big = Buffer.alloc(128 * 1024 + 1, 1);
    const tooBig = await uploadLogo(admin.token, big, 'big.png');
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.message).toMatch(/128 KB/);
  });

  it('is changed only by those who may change the drive’s settings', async () => {
    const user = await makeUser(t.app, admin.token, { username: 'bob' });
    const res = await uploadLogo(user.token, SVG_WITH_SCRIPT, 'logo.svg');
    expect(res.status).toBe(403);
  });
});

describe('the website settings', () => {
  it('keep a footer line and the versions kept per file, for administrators', async () => {
    const set = await call<{ footerText: string; versionsPerFile: number }>(
      t.app,
      'PUT',
      '/website/setting/update',
      { token: admin.token, body: { footerText: '  Record 2026-001  ', versionsPerFile: 7 } },
    );
    expect(set.body.code, set.body.message).toBe(0);
    expect(set.body.data).toMatchObject({ footerText: 'Record 2026-001', versionsPerFile: 7 });
    expect(await t.app.services.settings.get('versionsPerFile')).toBe(7);
    const record = await call<{ footerText: string }>(t.app, 'GET', '/public/website/record');
    expect(record.body.data!.footerText).toBe('Record 2026-001');

    for (const body of [
      { footerText: 'a'.repeat(301) },
      { footerText: 'two\nlines' },
      { versionsPerFile: 0 },
      { versionsPerFile: 501 },
    ]) {
      const bad = await call(t.app, 'PUT', '/website/setting/update', {
        token: admin.token,
        body,
      });
      expect(bad.status, JSON.stringify(body)).toBe(422);
    }
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    for (const [method, url] of [
      ['GET', '/website/setting'],
      ['PUT', '/website/setting/update'],
    ] as const) {
      const refused = await call(t.app, method, url, { token: bob.token, body: {} });
      expect(refused.status, url).toBe(403);
    }
  });
});
