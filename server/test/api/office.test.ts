import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ErrorCode,
  MASKED_SECRET,
  SEED_MENUS,
  USER_ROLE,
  USER_ROLE_MENUS,
  type OfficeConfigView,
  type OfficeHistory,
} from '@nimbus/contract';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, unlock, visitor } from '../share-fixtures.ts';

// real LibreOffice conversions, one or two a test: up to half a minute each on a busy machine
vi.setConfig({ testTimeout: 90_000 });

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-office-'));
let docx: Buffer;
let editedDocx: Buffer;

/**
 * A Word document: the three parts a WordprocessingML package needs, zipped as Word does (the
 * conversions under test are LibreOffice's; making the fixture needs no office program).
 */
function wordDocument(name: string, text: string): Buffer {
  const folder = fs.mkdtempSync(path.join(work, `${name}-`));
  const parts: Record<string, string> = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:rPr><w:b/><w:sz w:val="48"/></w:rPr><w:t>${text}</w:t></w:r></w:p><w:p><w:r><w:t>Second paragraph.</w:t></w:r></w:p><w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>`,
  };
  for (const [part, xml] of Object.entries(parts)) {
    fs.mkdirSync(path.dirname(path.join(folder, part)), { recursive: true });
    fs.writeFileSync(path.join(folder, part), xml);
  }
  const docx = path.join(work, `${name}.docx`);
  execFileSync('7zz', ['a', '-tzip', '-mx=1', docx, ...Object.keys(parts)], {
    cwd: folder,
    stdio: 'ignore',
  });
  return fs.readFileSync(docx);
}

/** The text of a PDF, read by poppler. */
function pdfText(pdf: Buffer): string {
  const file = path.join(work, `read-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-']).toString('utf8');
}

/** How many pictures a PDF holds, as poppler lists them. */
function pdfImages(pdf: Buffer): number {
  const file = path.join(work, `images-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  const lines = execFileSync('pdfimages', ['-list', file]).toString('utf8').trim().split('\n');
  return lines.length - 2; // two lines of heading
}

/** An OpenDocument text with one picture: a file inside it, or a link to one elsewhere. */
function textWithPicture(name: string, picture: { link: string } | { png: Buffer }): Buffer {
  const folder = fs.mkdtempSync(path.join(work, `${name}-`));
  const href = 'link' in picture ? picture.link : 'Pictures/photo.png';
  fs.writeFileSync(path.join(folder, 'mimetype'), 'application/vnd.oasis.opendocument.text');
  fs.writeFileSync(
    path.join(folder, 'content.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.2">
<office:body><office:text><text:p>A picture:
<draw:frame draw:name="p" text:anchor-type="as-char" svg:width="3cm" svg:height="3cm"><draw:image xlink:href="${href}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame>
</text:p></office:text></office:body></office:document-content>`,
  );
  const entries = ['mimetype', 'content.xml', 'META-INF/manifest.xml'];
  if ('png' in picture) {
    fs.mkdirSync(path.join(folder, 'Pictures'));
    fs.writeFileSync(path.join(folder, 'Pictures', 'photo.png'), picture.png);
    entries.push('Pictures/photo.png');
  }
  const listed = entries
    .filter((e) => e !== 'mimetype' && !e.startsWith('META-INF'))
    .map((e) => {
      const type = e.endsWith('.png') ? 'image/png' : 'text/xml';
      return `<manifest:file-entry manifest:full-path="${e}" manifest:media-type="${type}"/>`;
    });
  fs.mkdirSync(path.join(folder, 'META-INF'));
  fs.writeFileSync(
    path.join(folder, 'META-INF', 'manifest.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
${listed.join('\n')}
</manifest:manifest>`,
  );
  const odt = path.join(work, `${name}.odt`);
  execFileSync('7zz', ['a', '-tzip', '-mx=0', odt, ...entries], { cwd: folder, stdio: 'ignore' });
  return fs.readFileSync(odt);
}

beforeAll(() => {
  docx = wordDocument('quarterly', 'Quarterly report of Nimbus');
  editedDocx = wordDocument('edited', 'Edited in the document server');
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

const { t, admin } = useAdminApp();

async function bytes(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: `/api${url}`, headers });
  return {
    status: res.statusCode,
    body: res.rawPayload,
    headers: res.headers,
    json: () => res.json<{ code: number }>(),
  };
}
const own = (token: string) => ({ 'nimbus-token': token });

describe('office documents as PDF', () => {
  it('converts a Word document on its first view and serves the cached PDF after', async () => {
    const id = await putFile(t, owner(), '/', 'Quarterly.docx', docx);
    // two viewers at once: one conversion, the same PDF for both
    const [first, second] = await Promise.all([
      bytes(`/preview/office?id=${id}`, own(admin.token)),
      bytes(`/preview/office?id=${id}`, own(admin.token)),
    ]);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    // read by the bundled viewer only, never shown by the browser's own
    expect(first.headers['content-disposition']).toMatch(/^attachment;.*Quarterly\.pdf/);
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(second.body.equals(first.body)).toBe(true);
    expect(pdfText(first.body)).toContain('Quarterly report of Nimbus');
    const cached = await t.app.services.blobs.list(t.app.services.blobs.cacheRoot('office'));
    expect(cached.map((e) => e.name)).toEqual([expect.stringMatching(new RegExp(`^${id}-`))]);

    // pdf.js reads in ranges
    const part = await bytes(`/preview/office?id=${id}`, {
      ...own(admin.token),
      range: 'bytes=0-99',
    });
    expect(part.status).toBe(206);
    expect(part.body.length).toBe(100);
    // the browser's iframe sends the token in the address
    const byQuery = await bytes(`/preview/office?id=${id}&nimbus-token=${admin.token}`);
    expect(byQuery.status).toBe(200);

    // deleted for good, the document takes its PDF with it
    await call(t.app, 'DELETE', '/delete', {
      token: admin.token,
      query: { fileIds: [id], sweep: 'true' },
    });
    await vi.waitFor(async () =>
      expect(
        await t.app.services.blobs.list(t.app.services.blobs.cacheRoot('office')),
      ).toHaveLength(0),
    );
  });

  it("shows none of another user's files that a document links to", async () => {
    const bob = await makeUser(t.app, admin.token);
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#d03030' },
    })
      .png()
      .toBuffer();
    await putFile(t, { userId: bob.userId, username: bob.username }, '/', 'photo.png', png);
    const bobs = path.join(t.dataDir, 'files', bob.username, 'photo.png');
    expect(fs.existsSync(bobs)).toBe(true);
    const pictures: Record<string, number> = {};
    for (const [name, picture] of [
      ['inside', { png }],
      ['linked', { link: `file://${bobs}` }],
      ['relative', { link: `../../${bob.username}/photo.png` }],
    ] as const) {
      const id = await putFile(t, owner(), '/', `${name}.odt`, textWithPicture(name, picture));
      const pdf = await bytes(`/preview/office?id=${id}`, own(admin.token));
      expect(pdf.status).toBe(200);
      pictures[name] = pdfImages(pdf.body);
    }
    // the picture inside the document shows; Bob's photo does not, by any address
    expect(pictures).toEqual({ inside: 1, linked: 0, relative: 0 });
  });

  it('refuses files that are not office documents, and other users\u2019 documents', async () => {
    const id = await putFile(t, owner(), '/', 'Quarterly.docx', docx);
    const text = await putFile(t, owner(), '/', 'notes.txt', 'hello');
    const notOffice = await call(t.app, 'GET', '/preview/office', {
      token: admin.token,
      query: { id: text },
    });
    expect(notOffice.body.code).toBe(ErrorCode.UNRECOGNIZED_FILE);

    const other = await makeUser(t.app, admin.token);
    const theirs = await call(t.app, 'GET', '/preview/office', {
      token: other.token,
      query: { id },
    });
    expect(theirs.body.code).toBe(ErrorCode.FILE_NOT_FOUND);
    const history = await call(t.app, 'GET', '/history/office/list', {
      token: other.token,
      query: { fileId: id },
    });
    expect(history.body.code).toBe(ErrorCode.FILE_NOT_FOUND);
    const anonymous = await bytes(`/preview/office?id=${id}`);
    expect(anonymous.status).toBe(401);

    // a document LibreOffice cannot load: refused, and not tried again at once
    const broken = await putFile(t, owner(), '/', 'broken.docx', Buffer.from('PK\x03\x04garbage'));
    for (let i = 0; i < 2; i++) {
      const res = await call(t.app, 'GET', '/preview/office', {
        token: admin.token,
        query: { id: broken },
      });
      expect(res.body.code).toBe(ErrorCode.UNRECOGNIZED_FILE);
      expect(res.body.message).toMatch(/could not be converted/);
    }
  });

  it('shows a share\u2019s visitors the PDF of its documents, downloads off too, and nothing else', async () => {
    await makeFolder(t, admin.token, '/', 'reports');
    const inside = await putFile(t, owner(), '/reports/', 'Quarterly.docx', docx);
    const outside = await putFile(t, owner(), '/', 'Private.docx', docx);
    const folder = (await t.app.services.files.byPath(admin.userId, '/reports')).id;
    const share = await makeShare(t, admin.token, {
      fileId: folder,
      isFolder: true,
      isPrivacy: true,
      allowDownload: false,
    });
    const token = await unlock(t, share.shareId, share.extractionCode!);
    const headers = visitor(share.shareId, token);
    const pdf = await bytes(
      `/public/s/preview/office?shareId=${share.shareId}&id=${inside}`,
      headers,
    );
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdfText(pdf.body)).toContain('Quarterly report of Nimbus');
    // the address alone, as an iframe's viewer page asks for it
    const byAddress = await bytes(
      `/public/s/preview/office?shareId=${share.shareId}&id=${inside}&share-token=${token}`,
    );
    expect(byAddress.status).toBe(200);

    const elsewhere = await bytes(
      `/public/s/preview/office?shareId=${share.shareId}&id=${outside}`,
      headers,
    );
    expect(elsewhere.status).toBeGreaterThanOrEqual(400);
    expect(elsewhere.json().code).toBe(ErrorCode.FILE_NOT_FOUND);
    const locked = await bytes(`/public/s/preview/office?shareId=${share.shareId}&id=${inside}`);
    expect(locked.status).toBe(403);
    expect(locked.headers['content-type']).toMatch(/json/);
  });

  it('draws a document\u2019s first page as its thumbnail, for its owner and a share\u2019s visitor', async () => {
    await makeFolder(t, admin.token, '/', 'reports');
    const id = await putFile(t, owner(), '/reports/', 'Quarterly.docx', docx);
    // a zip's signature over noise: no office program can read it
    const noise = randomBytes(4096);
    noise.write('PK\x03\x04', 0, 'latin1');
    const broken = await putFile(t, owner(), '/reports/', 'Broken.docx', noise);
    const tile = await bytes(`/view/thumbnail?id=${id}`, own(admin.token));
    expect(tile.status).toBe(200);
    expect(tile.headers['content-type']).toBe('image/webp');
    const meta = await sharp(tile.body).metadata();
    // a portrait page, 256 px on its longer side
    expect(meta.height).toBe(256);
    expect(meta.width).toBeLessThan(256);
    // the page is white paper with dark writing
    const stats = await sharp(tile.body).stats();
    expect(stats.channels[0]!.max).toBeGreaterThan(240);
    expect(stats.channels[0]!.min).toBeLessThan(100);

    // a document that cannot be converted has none, and says so the way any file without one does
    const none = await call(t.app, 'GET', '/view/thumbnail', {
      token: admin.token,
      query: { id: broken },
    });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe(ErrorCode.FILE_NOT_FOUND);

    const folder = (await t.app.services.files.byPath(admin.userId, '/reports')).id;
    const share = await makeShare(t, admin.token, {
      fileId: folder,
      isFolder: true,
      isPrivacy: true,
      allowDownload: false,
    });
    const token = await unlock(t, share.shareId, share.extractionCode!);
    const seen = await bytes(
      `/public/s/view/thumbnail?shareId=${share.shareId}&id=${id}`,
      visitor(share.shareId, token),
    );
    expect(seen.status).toBe(200);
    expect(seen.body.equals(tile.body)).toBe(true);
  });
});

// ---- OnlyOffice ---------------------------------------------------------------------------------

/** HS256 of the test's own making, to check the server's tokens and to sign as the server would. */
function jwt(payload: unknown, secret: string): string {
  const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

/** A stand-in document server on the loopback: serves an edited file and records what it is asked. */
async function fakeDocumentServer(file: Buffer | (() => Buffer)) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith('/cache/files/')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(typeof file === 'function' ? file() : file);
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('OnlyOffice', () => {
  const secret = 'a-document-server-secret';

  it('keeps the settings for administrators and shows the secret to nobody', async () => {
    const before = await call<OfficeConfigView>(t.app, 'GET', '/office/config', {
      token: admin.token,
    });
    expect(before.body.data).toMatchObject({ documentServer: '', tokenEnabled: false, secret: '' });
    expect(before.body.data!.format).toContain('docx');

    const put = await call<OfficeConfigView>(t.app, 'PUT', '/office/config', {
      token: admin.token,
      body: {
        documentServer: 'http://office.example:8080/',
        secret,
        callbackServer: 'http://nimbus:8088/api',
        format: ['docx', 'XLSX'],
      },
    });
    expect(put.body.code).toBe(0);
    expect(put.body.data).toEqual({
      documentServer: 'http://office.example:8080',
      callbackServer: 'http://nimbus:8088/api',
      tokenEnabled: true,
      format: ['docx', 'xlsx'],
      secret: MASKED_SECRET,
    });
    expect(JSON.stringify(await t.app.services.settings.repo.value('officeConfig'))).not.toContain(
      secret,
    );

    // the masked value sent back keeps the secret
    await call(t.app, 'PUT', '/office/config', {
      token: admin.token,
      body: { documentServer: 'http://office.example:8080', secret: MASKED_SECRET },
    });
    const signed = await call<string>(t.app, 'POST', '/office/signature', {
      token: admin.token,
      body: { document: { key: 'k1', url: 'http://nimbus/api/file/admin/a.docx' } },
    });
    expect(signed.body.data).toBe(
      jwt({ document: { key: 'k1', url: 'http://nimbus/api/file/admin/a.docx' } }, secret),
    );

    const user = await makeUser(t.app, admin.token);
    const seen = await call<OfficeConfigView>(t.app, 'GET', '/office/config', {
      token: user.token,
    });
    expect(seen.body.data?.secret).toBe(MASKED_SECRET);
    const refused = await call(t.app, 'PUT', '/office/config', {
      token: user.token,
      body: { documentServer: 'http://evil.example', secret: '' },
    });
    expect(refused.body.code).toBe(ErrorCode.PERMISSION_DENIED);
    const bad = await call(t.app, 'PUT', '/office/config', {
      token: admin.token,
      body: { documentServer: 'javascript:alert(1)' },
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
  });

  it('signs editor configurations only, and gives share visitors the public settings', async () => {
    const unsigned = await call<string>(t.app, 'POST', '/office/signature', {
      token: admin.token,
      body: { document: { key: 'k' } },
    });
    expect(unsigned.body).toMatchObject({ code: 0, data: '' });
    await call(t.app, 'PUT', '/office/config', {
      token: admin.token,
      body: { documentServer: 'http://office.example', secret },
    });
    const forged = await call(t.app, 'POST', '/office/signature', {
      token: admin.token,
      body: { document: { key: 'k' }, status: 2, url: 'http://office.example/x' },
    });
    expect(forged.body.code).toBe(ErrorCode.BAD_PARAMETER);
    const anonymous = await call(t.app, 'POST', '/office/signature', {
      body: { document: { key: 'k' } },
    });
    expect(anonymous.status).toBe(401);

    const id = await putFile(t, owner(), '/', 'Quarterly.docx', docx);
    const share = await makeShare(t, admin.token, { fileId: id, isFolder: false, isPrivacy: true });
    const locked = await call(t.app, 'GET', '/public/office/config', {
      query: { shareId: share.shareId },
    });
    expect(locked.body.code).not.toBe(0);
    const token = await unlock(t, share.shareId, share.extractionCode!);
    const config = await call(t.app, 'GET', '/public/office/config', {
      query: { shareId: share.shareId, shareToken: token },
    });
    expect(config.body.data).toEqual({
      documentServer: 'http://office.example',
      callbackServer: '',
      tokenEnabled: true,
      format: expect.arrayContaining(['docx']),
    });
    const publicSigned = await call<string>(t.app, 'POST', '/public/office/signature', {
      query: { shareId: share.shareId, shareToken: token },
      body: { document: { key: 'k' } },
    });
    expect(publicSigned.body.data).toBe(jwt({ document: { key: 'k' } }, secret));
  });

  it('saves what the document server sends back over the file, signed callbacks only', async () => {
    const docServer = await fakeDocumentServer(editedDocx);
    const elsewhere = await fakeDocumentServer(Buffer.from('not from the document server'));
    try {
      await call(t.app, 'PUT', '/office/config', {
        token: admin.token,
        body: { documentServer: docServer.origin, secret },
      });
      const id = await putFile(t, owner(), '/', 'Quarterly.docx', docx);
      const history = await call<OfficeHistory>(t.app, 'GET', '/history/office/list', {
        token: admin.token,
        query: { fileId: id },
      });
      const key = history.body.data!.history[0]!.key;
      expect(history.body.data!.currentVersion).toBe(1);
      const track = (body: Record<string, unknown>, token = admin.token, headers = {}) =>
        call<never>(t.app, 'POST', '/office/track', {
          query: { fileId: id, 'nimbus-token': token, name: ADMIN.username },
          body,
          headers,
        });
      expect((await bytes(`/preview/office?id=${id}`, own(admin.token))).status).toBe(200);
      const readFile = async () =>
        (await bytes(`/file/${ADMIN.username}/Quarterly.docx`, own(admin.token))).body;

      // 1: someone is editing; acknowledged
      const editing = { key, status: 1, users: ['u1'], actions: [{ type: 1, userid: 'u1' }] };
      expect((await track({ ...editing, token: jwt(editing, secret) })).body).toEqual({
        error: 0,
      });

      const save = {
        key,
        status: 2,
        url: `${docServer.origin}/cache/files/${key}/output.docx`,
        changesurl: `${docServer.origin}/cache/files/${key}/changes.zip`,
        users: ['u1'],
        actions: [{ type: 0, userid: 'u1' }],
        lastsave: '2026-11-23T23:00:00.000Z',
        notmodified: false,
      };
      // unsigned, or signed with another secret: nothing is fetched, nothing written
      expect((await track(save)).status).toBe(403);
      expect((await track({ ...save, token: jwt(save, 'another') })).status).toBe(403);
      // a signed body naming another server
      const offsite = { ...save, url: `${elsewhere.origin}/cache/files/x/output.docx` };
      expect((await track({ ...offsite, token: jwt(offsite, secret) })).body.code).toBe(
        ErrorCode.BAD_PARAMETER,
      );
      // another user's token
      const other = await makeUser(t.app, admin.token);
      const notTheirs = await track({ ...save, token: jwt(save, secret) }, other.token);
      expect(notTheirs.body.code).toBe(ErrorCode.FILE_NOT_FOUND);
      expect(docServer.requests).toEqual([]);
      expect(elsewhere.requests).toEqual([]);
      expect((await readFile()).equals(docx)).toBe(true);

      // signed in the body: saved over the file, same id
      const saved = await track({ ...save, token: jwt(save, secret) });
      expect(saved.body).toEqual({ error: 0 });
      expect(docServer.requests).toEqual([`GET /cache/files/${key}/output.docx`]);
      expect((await readFile()).equals(editedDocx)).toBe(true);
      const row = await t.app.services.fileRows.live(admin.userId, id);
      expect(row?.size).toBe(editedDocx.length);
      const after = await call<OfficeHistory>(t.app, 'GET', '/history/office/list', {
        token: admin.token,
        query: { fileId: id },
      });
      expect(after.body.data!.history[0]!.key).not.toBe(key);
      // the PDF follows the new bytes, and replaces the one of the old bytes
      const pdf = await bytes(`/preview/office?id=${id}`, own(admin.token));
      expect(pdfText(pdf.body)).toContain('Edited in the document server');
      const cached = await t.app.services.blobs.list(t.app.services.blobs.cacheRoot('office'));
      expect(cached).toHaveLength(1);

      // signed in the header (force save, 6): the header's payload is the body
      const forced = { ...save, status: 6, forcesavetype: 0 };
      const viaHeader = await track(forced, admin.token, {
        authorization: `Bearer ${jwt({ payload: forced }, secret)}`,
      });
      expect(viaHeader.body).toEqual({ error: 0 });
      expect(docServer.requests).toHaveLength(2);
    } finally {
      await docServer.close();
      await elsewhere.close();
    }
  });

  it('lets the document server show a kept version: its address carries the token, its data is signed', async () => {
    const docServer = await fakeDocumentServer(editedDocx);
    try {
      await call(t.app, 'PUT', '/office/config', {
        token: admin.token,
        body: { documentServer: docServer.origin, secret },
      });
      const id = await putFile(t, owner(), '/', 'Quarterly.docx', docx);
      const before = await call<OfficeHistory>(t.app, 'GET', '/history/office/list', {
        token: admin.token,
        query: { fileId: id },
      });
      const key = before.body.data!.history[0]!.key;
      const save = { key, status: 2, url: `${docServer.origin}/cache/files/${key}/output.docx` };
      const saved = await call(t.app, 'POST', '/office/track', {
        query: { fileId: id, 'nimbus-token': admin.token },
        body: { ...save, token: jwt(save, secret) },
      });
      expect(saved.body).toEqual({ error: 0 });

      const history = await call<OfficeHistory>(t.app, 'GET', '/history/office/list', {
        token: admin.token,
        query: { fileId: id },
      });
      expect(history.body.data!.currentVersion).toBe(2);
      const kept = history.body.data!.history[0]!;
      expect(kept).toMatchObject({ version: 1, user: { name: ADMIN.username } });
      // the document server has no session: the token rides in the address, as for the file
      const address = `/history/preview/file?id=${kept.key}&fileId=${id}`;
      const fetched = await bytes(`${address}&nimbus-token=${encodeURIComponent(admin.token)}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body.equals(docx)).toBe(true);
      expect(String(fetched.headers['content-disposition'])).toMatch(/^attachment;/);
      expect((await bytes(address)).status).toBe(401);
      const other = await makeUser(t.app, admin.token);
      const theirs = await bytes(`${address}&nimbus-token=${encodeURIComponent(other.token)}`);
      expect(theirs.status).toBeGreaterThanOrEqual(400);

      // the version's data is signed for the editor, as its configuration is
      const data = {
        fileType: 'docx',
        key: kept.key,
        url: `http://nimbus/api${address}`,
        version: 1,
      };
      const signed = await call<string>(t.app, 'POST', '/office/signature', {
        token: admin.token,
        body: data,
      });
      expect(signed.body.data).toBe(jwt(data, secret));
      // but nothing shaped like a save
      const forged = await call(t.app, 'POST', '/office/signature', {
        token: admin.token,
        body: { ...data, status: 2 },
      });
      expect(forged.body.code).toBe(ErrorCode.BAD_PARAMETER);
    } finally {
      await docServer.close();
    }
  });

  it('keeps what each save of an editing session replaced, one version per save', async () => {
    const saves = [Buffer.from('first save'), Buffer.from('second save'), Buffer.from('closed')];
    let served = 0;
    const docServer = await fakeDocumentServer(() => saves[served++]!);
    try {
      await call(t.app, 'PUT', '/office/config', {
        token: admin.token,
        body: { documentServer: docServer.origin, secret },
      });
      const id = await putFile(t, owner(), '/', 'Session.docx', docx);
      // two force saves (6) while editing, then the save when everyone closed it (2)
      for (const status of [6, 6, 2]) {
        const body = { key: `k${served}`, status, url: `${docServer.origin}/cache/files/k/out` };
        const saved = await call(t.app, 'POST', '/office/track', {
          query: { fileId: id, 'nimbus-token': admin.token },
          body: { ...body, token: jwt(body, secret) },
        });
        expect(saved.body).toEqual({ error: 0 });
      }
      const list = await call<{ id: string }[]>(t.app, 'GET', '/history/list', {
        token: admin.token,
        query: { fileId: id },
      });
      const kept = await Promise.all(
        list.body.data!.map(async (v) =>
          (
            await bytes(
              `/history/preview/file?id=${v.id}&fileId=${id}&nimbus-token=${encodeURIComponent(admin.token)}`,
            )
          ).body.toString('latin1'),
        ),
      );
      expect(kept).toEqual(['second save', 'first save', docx.toString('latin1')]);
    } finally {
      await docServer.close();
    }
  });
});

describe('OnlyOffice addresses', () => {
  const secret = 'a-document-server-secret';
  interface EditorConfig {
    token?: string;
    document: { key: string; url: string; fileType: string; permissions: { edit: boolean } };
    editorConfig: { callbackUrl: string; user: { id: string } };
  }
  /** A path and query of this API from an address the document server was given. */
  const local = (address: string) => {
    const url = new URL(address);
    expect(url.origin).toBe('http://nimbus:8088');
    return `${url.pathname.replace(/^\/api/, '')}${url.search}`;
  };
  const editorOf = async (token: string, fileId: string) => {
    const res = await call<EditorConfig>(t.app, 'GET', '/office/editor', {
      token,
      query: { fileId, lang: 'en' },
    });
    expect(res.body.code, res.body.message).toBe(0);
    return res.body.data!;
  };
  const setUp = (documentServer = 'http://office.example') =>
    call(t.app, 'PUT', '/office/config', {
      token: admin.token,
      body: { documentServer, secret, callbackServer: 'http://nimbus:8088/api' },
    });

  it('hands the editor no session token: its addresses are signed for one file and one user', async () => {
    await setUp();
    const id = await putFile(t, owner(), '/', 'Quarterly.docx', docx);
    const other = await putFile(t, owner(), '/', 'Other.docx', Buffer.from('other'));
    const config = await editorOf(admin.token, id);
    expect(JSON.stringify(config)).not.toContain(admin.token);
    expect(JSON.stringify(config)).not.toContain('nimbus-token');
    expect(config.document).toMatchObject({ fileType: 'docx', permissions: { edit: true } });
    expect(config.editorConfig.user.id).toBe(admin.userId);
    // the configuration is signed as a whole with the document server's secret
    const { token: signature, ...unsigned } = config;
    expect(signature).toBe(jwt(unsigned, secret));

    // the document's address opens its bytes, without any session
    const file = local(config.document.url);
    const fetched = await bytes(file);
    expect(fetched.status).toBe(200);
    expect(fetched.body.equals(docx)).toBe(true);

    // not another file's, not with a changed signature, not after its few minutes
    const refused = async (address: string) => {
      const res = await bytes(address);
      expect(res.status, address).toBe(403);
      expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
    };
    await refused(file.replace(`fileId=${id}`, `fileId=${other}`));
    const signed = new URL(config.document.url).searchParams.get('signature')!;
    const flipped = `${signed[0] === 'A' ? 'B' : 'A'}${signed.slice(1)}`;
    await refused(file.replace(`signature=${signed}`, `signature=${flipped}`));
    await refused(file.replace(`signature=${signed}`, 'signature=not-a-signature'));
    await refused(
      file.replace(/&user=[^&]+/, `&user=${(await makeUser(t.app, admin.token)).userId}`),
    );
    await refused(file.replace(/&expires=(\d+)/, (_, e: string) => `&expires=${Number(e) + 1}`));
    // the callback's signature opens no bytes, the file's no callback
    const callback = local(config.editorConfig.callbackUrl);
    await refused(`/office/file?${new URL(config.editorConfig.callbackUrl).search.slice(1)}`);
    expect((await bytes(file.replace(/&signature=[^&]+/, ''))).status).toBe(403);
    const unreadable = await bytes(file.replace(/&expires=\d+/, '&expires=soon'));
    expect(unreadable.status).toBe(422);
    expect(unreadable.json().code).toBe(ErrorCode.BAD_PARAMETER);
    expect(callback).toMatch(/^\/office\/track\?/);

    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 6 * 60_000);
    try {
      await refused(file);
    } finally {
      clock.mockRestore();
    }
  });

  it('takes the save callback for its file only, while its user may still edit it', async () => {
    const docServer = await fakeDocumentServer(editedDocx);
    try {
      await setUp(docServer.origin);
      const user = await makeUser(t.app, admin.token);
      const mine = { userId: user.userId, username: user.username };
      const id = await putFile(t, mine, '/', 'Mine.docx', docx);
      const other = await putFile(t, mine, '/', 'Other.docx', docx);
      const config = await editorOf(user.token, id);
      const callback = local(config.editorConfig.callbackUrl);
      const save = (address: string) => {
        const body = {
          key: config.document.key,
          status: 2,
          url: `${docServer.origin}/cache/files/k/output.docx`,
        };
        return call<never>(t.app, 'POST', address, { body: { ...body, token: jwt(body, secret) } });
      };
      // another file's callback, a changed signature: refused, nothing fetched
      const elsewhere = await save(callback.replace(`fileId=${id}`, `fileId=${other}`));
      expect(elsewhere.status).toBe(403);
      const tampered = await save(callback.replace(/signature=[^&]+/, 'signature=AAAA'));
      expect(tampered.status).toBe(403);
      expect(docServer.requests).toEqual([]);

      // within the editing session's day, the save goes over the file
      const later = Date.now() + 3 * 3600_000;
      const clock = vi.spyOn(Date, 'now').mockReturnValue(later);
      try {
        expect((await save(callback)).body).toEqual({ error: 0 });
      } finally {
        clock.mockRestore();
      }
      expect(docServer.requests).toHaveLength(1);
      const row = await t.app.services.fileRows.live(user.userId, id);
      expect(row?.size).toBe(editedDocx.length);

      // the user loses the right to change files: the same address saves nothing more
      const narrowed = await call(t.app, 'PUT', '/role/update', {
        token: admin.token,
        body: {
          id: USER_ROLE.id,
          menuIds: USER_ROLE_MENUS.filter(
            (m) => SEED_MENUS.find((s) => s.id === m)?.authority !== 'cloud:file:update',
          ),
        },
      });
      expect(narrowed.body.code, narrowed.body.message).toBe(0);
      const lost = await save(callback);
      expect(lost.status).toBe(403);
      expect(docServer.requests).toHaveLength(1);

      // and after a day, the address has expired
      const dayLater = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 25 * 3600_000);
      try {
        const late = await save(callback);
        expect(late.status).toBe(403);
        expect(late.body.message).toMatch(/expired/);
      } finally {
        dayLater.mockRestore();
      }
    } finally {
      await docServer.close();
    }
  });

  it('shows a kept version to the document server by a signed address of that version', async () => {
    const docServer = await fakeDocumentServer(editedDocx);
    try {
      await setUp(docServer.origin);
      const id = await putFile(t, owner(), '/', 'Quarterly.docx', docx);
      const config = await editorOf(admin.token, id);
      const body = {
        key: config.document.key,
        status: 2,
        url: `${docServer.origin}/cache/files/k/out`,
      };
      const saved = await call(t.app, 'POST', local(config.editorConfig.callbackUrl), {
        body: { ...body, token: jwt(body, secret) },
      });
      expect(saved.body).toEqual({ error: 0 });
      const history = await call<OfficeHistory>(t.app, 'GET', '/history/office/list', {
        token: admin.token,
        query: { fileId: id },
      });
      const kept = history.body.data!.history[0]!;
      const data = await call<{ url: string; key: string; token: string }>(
        t.app,
        'GET',
        '/office/version',
        { token: admin.token, query: { fileId: id, id: kept.key, version: 1 } },
      );
      expect(data.body.code, data.body.message).toBe(0);
      const { token: signature, ...unsigned } = data.body.data!;
      expect(signature).toBe(jwt(unsigned, secret));
      expect(JSON.stringify(data.body.data)).not.toContain(admin.token);
      const address = local(data.body.data!.url);
      const fetched = await bytes(address);
      expect(fetched.status).toBe(200);
      expect(fetched.body.equals(docx)).toBe(true);
      // the version's signature opens neither the current bytes nor another version
      expect((await bytes(address.replace(/&id=[^&]+/, ''))).status).toBe(403);
      const current = await call<{ url: string }>(t.app, 'GET', '/office/version', {
        token: admin.token,
        query: { fileId: id, version: 2 },
      });
      const currentBytes = await bytes(local(current.body.data!.url));
      expect(currentBytes.body.equals(editedDocx)).toBe(true);
      // nobody else's versions are signed
      const stranger = await makeUser(t.app, admin.token);
      const theirs = await call(t.app, 'GET', '/office/version', {
        token: stranger.token,
        query: { fileId: id, id: kept.key, version: 1 },
      });
      expect(theirs.status).toBeGreaterThanOrEqual(400);
      expect(theirs.status).toBeLessThan(500);
    } finally {
      await docServer.close();
    }
  });
});
