import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN, call, makeTestApp, makeUser, putFile, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, raw, unlock } from '../share-fixtures.ts';

// Bytes a browser could run never leave the drive's origin as a page: whatever their name says,
// markup goes out as a download, and every response carrying stored bytes forbids scripts.

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp();

const SCRIPT = '<script>window.pwned = 1; fetch("/api/new_folder?filename=pwned")</script>';
const XHTML = `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><body><mxfile/>${SCRIPT}</body></html>`;

/** Files whose bytes are markup, by any name. */
const MARKUP: Record<string, Buffer> = {
  'diagram.drawio': Buffer.from(XHTML),
  'page.html': Buffer.from(`<!DOCTYPE html><html><body>${SCRIPT}</body></html>`),
  'page.xhtml': Buffer.from(XHTML),
  'logo.svg': Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg"><script>window.pwned = 1</script></svg>`,
  ),
  'data.xml': Buffer.from(`<?xml version="1.0"?><root>${SCRIPT}</root>`),
  'notes.txt': Buffer.from(`<html><body>${SCRIPT}</body></html>`),
  'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`\n  ${SCRIPT}`)]),
  'wide.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<html>${SCRIPT}`, 'utf16le')]),
  'late.txt': Buffer.from(`Meeting notes\n\n<iframe src="x"></iframe>${SCRIPT}`),
  'photo.png': Buffer.from(`<html>${SCRIPT}</html>`),
  'readme.md': Buffer.from(`<!doctype html>${SCRIPT}`),
  'blob.bin': Buffer.from(`  <svg onload="alert(1)"/>`),
};

/** Inert files: shown inline, still under a policy that forbids scripts. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('rest of an image'),
]);
const INERT: Record<string, { bytes: Buffer; type: RegExp }> = {
  'plain.txt': { bytes: Buffer.from('just words, 3 < 4'), type: /^text\/plain/ },
  'pic.png': { bytes: PNG, type: /^image\/png$/ },
};

const SANDBOX = "sandbox; default-src 'none'";

function expectDownload(res: { status: number; headers: Record<string, unknown> }, what: string) {
  expect(res.status, what).toBe(200);
  expect(String(res.headers['content-disposition']), what).toMatch(/^attachment;/);
  expect(res.headers['content-type'], what).toBe('application/octet-stream');
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['content-security-policy'], what).toBe(SANDBOX);
}

function expectInline(
  res: { status: number; headers: Record<string, unknown> },
  type: RegExp,
  what: string,
) {
  expect(res.status, what).toBe(200);
  expect(String(res.headers['content-disposition']), what).toMatch(/^inline;/);
  expect(String(res.headers['content-type']), what).toMatch(type);
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['content-security-policy'], what).toBe(SANDBOX);
}

describe('bytes a browser could run', () => {
  it('go out as downloads under a sandbox from every byte route; inert bytes stay inline', async () => {
    await makeFolder(t, admin.token, '/', 'drop');
    const ids = new Map<string, string>();
    for (const [name, bytes] of Object.entries(MARKUP))
      ids.set(name, await putFile(t, owner(), '/drop', name, bytes));
    for (const [name, { bytes }] of Object.entries(INERT))
      ids.set(name, await putFile(t, owner(), '/drop', name, bytes));
    const folder = await call<Array<{ id: string; name: string }>>(t.app, 'GET', '/list', {
      token: admin.token,
    });
    const dropId = folder.body.data!.find((i) => i.name === 'drop')!.id;
    const share = await makeShare(t, admin.token, { fileId: dropId, isPrivacy: true });
    const shareToken = await unlock(t, share.shortId, share.extractionCode!);
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const mount = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': shareToken },
      body: { shareId: share.shareId, fileId: '0' },
    });
    expect(mount.body.code, mount.body.message).toBe(0);

    const asAdmin = { 'nimbus-token': admin.token };
    const routes = (name: string, id: string) => {
      const n = encodeURIComponent(name);
      const q = `shareId=${share.shareId}&share-token=${shareToken}`;
      return [
        ['own file', `/file/admin/drop/${n}`, asAdmin],
        ['pre-file', `/pre-file/${id}/${n}`, asAdmin],
        ['mounted pre-file', `/pre-file/${id}/${n}`, { 'nimbus-token': bob.token }],
        ['share-file with token', `/share-file/${id}/${shareToken}/${n}`, {}],
        ['share-file', `/share-file/${id}/${n}?${q}`, {}],
        ['public preview', `/public/s/preview/${n}?${q}&fileId=${id}`, {}],
        [
          'public preview as the signed-in owner',
          `/public/s/preview/${n}?${q}&fileId=${id}`,
          asAdmin,
        ],
        ['public download', `/public/s/download/${n}?${q}&fileId=${id}`, {}],
      ] as const;
    };

    for (const name of Object.keys(MARKUP)) {
      const id = ids.get(name)!;
      for (const [route, url, headers] of routes(name, id)) {
        const res = await raw(t, url, headers);
        expectDownload(res, `${name} through ${route}`);
        // a range of it is no page either
        const part = await raw(t, url, { ...headers, range: 'bytes=0-9' });
        expect(part.status, `${name} range through ${route}`).toBe(206);
        expect(String(part.headers['content-disposition'])).toMatch(/^attachment;/);
        expect(part.headers['content-security-policy']).toBe(SANDBOX);
      }
    }
    // the thumbnail of an "image" that is markup is no image
    const fake = ids.get('photo.png')!;
    const thumb = await raw(
      t,
      `/public/s/view/thumbnail?shareId=${share.shareId}&share-token=${shareToken}&id=${fake}`,
    );
    expect(thumb.status, 'thumbnail of a png that is markup').toBe(404);
    expect(thumb.headers['content-type']).toMatch(/^application\/json/);

    for (const [name, { type }] of Object.entries(INERT)) {
      const id = ids.get(name)!;
      for (const [route, url, headers] of routes(name, id)) {
        if (route === 'public download') continue;
        expectInline(await raw(t, url, headers), type, `${name} through ${route}`);
      }
    }
    // downloads asked for are downloads, under the same policy
    const asked = await raw(t, `/pre-file/${ids.get('pic.png')}/pic.png?o=download`, asAdmin);
    expect(String(asked.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(asked.headers['content-security-policy']).toBe(SANDBOX);
  });

  it('sends a PDF as an attachment from every byte route, so only the bundled viewer shows it', async () => {
    // a browser's own PDF viewer runs the document's scripts (app.alert) whatever the CSP says
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF',
    );
    await makeFolder(t, admin.token, '/', 'drop');
    const id = await putFile(t, owner(), '/drop', 'paper.pdf', pdf);
    const folder = await call<Array<{ id: string; name: string }>>(t.app, 'GET', '/list', {
      token: admin.token,
    });
    const dropId = folder.body.data!.find((i) => i.name === 'drop')!.id;
    const share = await makeShare(t, admin.token, { fileId: dropId, isPrivacy: true });
    const shareToken = await unlock(t, share.shortId, share.extractionCode!);
    // a share that allows no download still lets its page's viewer read the PDF
    const alone = await putFile(t, owner(), '/', 'paper.pdf', pdf);
    const viewOnly = await makeShare(t, admin.token, { fileId: alone, allowDownload: false });
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const mount = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': shareToken },
      body: { shareId: share.shareId, fileId: '0' },
    });
    expect(mount.body.code, mount.body.message).toBe(0);
    const asAdmin = { 'nimbus-token': admin.token };
    const q = `shareId=${share.shareId}&share-token=${shareToken}`;
    const routes = [
      ['own file', '/file/admin/drop/paper.pdf', asAdmin],
      ['pre-file', `/pre-file/${id}/paper.pdf`, asAdmin],
      ['mounted pre-file', `/pre-file/${id}/paper.pdf`, { 'nimbus-token': bob.token }],
      ['share-file with token', `/share-file/${id}/${shareToken}/paper.pdf`, {}],
      ['share-file', `/share-file/${id}/paper.pdf?${q}`, {}],
      ['public preview', `/public/s/preview/paper.pdf?${q}&fileId=${id}`, {}],
      ['public preview as the owner', `/public/s/preview/paper.pdf?${q}&fileId=${id}`, asAdmin],
      ['public download', `/public/s/download/paper.pdf?${q}&fileId=${id}`, {}],
      [
        'public preview of a share without downloads',
        `/public/s/preview/paper.pdf?shareId=${viewOnly.shareId}&fileId=${alone}`,
        {},
      ],
    ] as const;
    for (const [route, url, headers] of routes) {
      const res = await raw(t, url, headers);
      expect(res.status, route).toBe(200);
      expect(res.body, route).toContain('%PDF-1.4');
      expect(String(res.headers['content-disposition']), route).toMatch(/^attachment;/);
      expect(res.headers['content-security-policy'], route).toBe(SANDBOX);
      expect(res.headers['x-content-type-options'], route).toBe('nosniff');
    }

    // WebDAV, on a listening server as its clients reach it
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const dav = await fetch(`http://127.0.0.1:${port}/webdav/drop/paper.pdf`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`,
      },
    });
    expect(dav.status).toBe(200);
    expect(dav.headers.get('content-disposition')).toMatch(/^attachment;/);
    await dav.arrayBuffer();
  });

  it('puts zips of stored bytes under the same policy', async () => {
    const id = await putFile(t, owner(), '/', 'page.html', `<html>${SCRIPT}</html>`);
    const zip = await raw(t, `/packageDownload?fileIds=${id}`, { 'nimbus-token': admin.token });
    expect(zip.status).toBe(200);
    expect(zip.headers['content-security-policy']).toBe(SANDBOX);
    expect(zip.headers['x-content-type-options']).toBe('nosniff');
    const share = await makeShare(t, admin.token, { fileId: id });
    const shared = await raw(t, `/public/s/packageDownload?shareId=${share.shareId}&fileIds=${id}`);
    expect(shared.status).toBe(200);
    expect(shared.headers['content-security-policy']).toBe(SANDBOX);
    expect(shared.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers every API request with nosniff and a policy that runs nothing', async () => {
    for (const url of ['/public/health', '/user/info', '/no/such/route']) {
      const res = await raw(t, url, { 'nimbus-token': admin.token });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['content-security-policy'], url).toBe(SANDBOX);
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });
});

describe('the web app', () => {
  it('is served with a strict content security policy and cannot be framed', async () => {
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(
      path.join(webDir, 'index.html'),
      '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head></html>',
    );
    fs.writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log(1)');
    const web = await makeTestApp({ webDir });
    try {
      for (const url of ['/', '/login', '/s/abc123', '/assets/app.js', '/no/such/page']) {
        const res = await web.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        const csp = String(res.headers['content-security-policy']);
        const directives = new Map(
          csp.split(';').map((d) => {
            const [name, ...values] = d.trim().split(/\s+/);
            return [name!, values] as const;
          }),
        );
        expect(directives.get('default-src'), url).toEqual(["'self'"]);
        expect(directives.get('script-src'), url).toContain("'self'");
        expect(directives.get('script-src'), url).not.toContain("'unsafe-inline'");
        expect(directives.get('script-src'), url).not.toContain("'unsafe-eval'");
        expect(directives.get('object-src'), url).toEqual(["'none'"]);
        expect(directives.get('base-uri'), url).toEqual(["'self'"]);
        expect(directives.get('form-action'), url).toEqual(["'self'"]);
        expect(directives.get('frame-ancestors'), url).toEqual(["'none'"]);
        expect(directives.get('connect-src'), url).toEqual(["'self'"]);
        expect(res.headers['x-frame-options'], url).toBe('DENY');
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
        expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      }
    } finally {
      await web.close();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  });
});
