import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, type MarkdownImage } from '@nimbus/contract';
import { MarkdownService } from '../../src/modules/markdown/markdown.service.ts';
import { ADMIN, call, putFile, useAdminApp } from '../harness.ts';
import { multipartBody } from '../upload-client.ts';

// Images of markdown documents (issue 12): uploaded beside the document, or fetched from a web
// address by the server, which never fetches from its own networks. Every server these tests
// start listens on a loopback address; the address check itself is unit-tested without traffic.

let png: Buffer;
const owner = () => ({ userId: admin.userId, username: ADMIN.username });
const disk = (...names: string[]) => path.join(t.dataDir, 'files', ADMIN.username, ...names);

beforeAll(async () => {
  png = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 40, b: 40 } },
  })
    .png()
    .toBuffer();
});
const { t, admin } = useAdminApp();

function upload(fields: Record<string, string>, bytes: Buffer, filename: string) {
  const { payload, contentType } = multipartBody(fields, bytes, filename);
  return call<MarkdownImage[]>(t.app, 'POST', '/upload-markdown-image', {
    token: admin.token,
    body: payload,
    headers: { 'content-type': contentType },
  });
}

describe('uploading an image into a document', () => {
  it('stores it in the assets folder beside the document and links it relatively', async () => {
    await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'notes', currentDirectory: '/' },
    });
    const doc = await putFile(t, owner(), '/notes', 'trip.md', '# Trip');
    const first = await upload({ fileId: doc }, png, 'shot.png');
    expect(first.body.code, first.body.message).toBe(0);
    expect(first.body.data).toEqual([
      expect.objectContaining({
        url: 'assets/shot.png',
        filename: 'shot.png',
        filepath: '/notes/assets/shot.png',
      }),
    ]);
    expect(fs.readFileSync(disk('notes', 'assets', 'shot.png'))).toEqual(png);
    // the same name again: a free one, the first kept
    const second = await upload({ fileId: doc }, png, 'shot.png');
    expect(second.body.data![0]!.filename).not.toBe('shot.png');
    expect(fs.existsSync(disk('notes', 'assets', second.body.data![0]!.filename))).toBe(true);
  });

  it('takes a file name with folders or a wrong suffix as a plain name of the right kind', async () => {
    const res = await upload({ currentDirectory: '/' }, png, '../../etc/passwd.gif');
    expect(res.body.code, res.body.message).toBe(0);
    expect(res.body.data![0]!.filepath).toBe('/assets/passwd.png');
  });

  it('refuses what is not an image, SVG included, and keeps nothing of it', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>');
    for (const [bytes, name] of [
      [svg, 'x.svg'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'x.png'],
    ] as const) {
      const res = await upload({ currentDirectory: '/' }, bytes, name);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(ErrorCode.BAD_PARAMETER);
    }
    expect(fs.existsSync(disk('assets', 'x.png'))).toBe(false);
  });
});

describe('importing an image from a web address', () => {
  const servers: http.Server[] = [];
  let hits: string[] = [];

  async function serve(host: string, handler: http.RequestListener): Promise<string> {
    const server = http.createServer((req, res) => {
      hits.push(`${host}${req.url}`);
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    servers.push(server);
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  }

  beforeEach(() => {
    hits = [];
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('refuses a loopback address without sending it anything', async () => {
    const base = await serve('127.0.0.1', (_req, res) => res.end(png));
    for (const url of [`${base}/a.png`, `http://localhost:${new URL(base).port}/a.png`]) {
      const res = await call(t.app, 'POST', '/upload-markdown-link-image', {
        token: admin.token,
        body: { url, currentDirectory: '/' },
      });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/public internet/);
    }
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/x.png']) {
      const res = await call(t.app, 'POST', '/upload-markdown-link-image', {
        token: admin.token,
        body: { url },
      });
      expect(res.status).toBe(422);
    }
    expect(hits).toEqual([]);
  });

  // The next tests let one loopback address stand for the public internet, so that a real
  // fetch happens without leaving the machine.
  const publicOnly = (allowed: string) => (address: string) => address === allowed;
  const importer = (allowed: string) =>
    new MarkdownService(
      t.app.services.db,
      t.app.services.files,
      t.app.services.fileOps,
      t.app.services.history,
      {
        allowAddress: publicOnly(allowed),
        fetchTimeoutMs: 5_000,
      },
    );
  const actor = async () => (await t.app.services.auth.authenticate(admin.token))!.actor;

  it('fetches an image from an allowed address and stores it', async () => {
    const base = await serve('127.0.0.1', (_req, res) => {
      res.setHeader('content-type', 'image/png');
      res.end(png);
    });
    const image = await importer('127.0.0.1').importImage(
      await actor(),
      { currentDirectory: '/' },
      `${base}/pics/cat.png?size=8`,
    );
    expect(image).toMatchObject({ filename: 'cat.png', url: 'assets/cat.png' });
    expect(fs.readFileSync(disk('assets', 'cat.png'))).toEqual(png);
    // an address whose last segment is not valid percent-encoding still gives a plain name
    const odd = await importer('127.0.0.1').importImage(
      await actor(),
      { currentDirectory: '/' },
      `${base}/odd%E0name.png`,
    );
    expect(odd.filename).toMatch(/^odd.*name\.png$/);
  });

  it('refuses a redirect to another loopback address, which then hears nothing', async () => {
    const other = await serve('127.0.0.2', (_req, res) => res.end(png));
    const base = await serve('127.0.0.1', (_req, res) => {
      res.statusCode = 302;
      res.setHeader('location', `${other}/inside.png`);
      res.end();
    });
    await expect(
      importer('127.0.0.1').importImage(await actor(), {}, `${base}/go.png`),
    ).rejects.toThrow(/public internet/);
    expect(hits).toEqual(['127.0.0.1/go.png']);
  });

  it('refuses what is not an image and what is too large', async () => {
    const base = await serve('127.0.0.1', (req, res) => {
      if (req.url === '/page') {
        res.setHeader('content-type', 'text/html');
        return res.end('<html></html>');
      }
      if (req.url === '/svg') {
        res.setHeader('content-type', 'image/svg+xml');
        return res.end('<svg/>');
      }
      if (req.url === '/liar') {
        res.setHeader('content-type', 'image/png');
        return res.end('<script>alert(1)</script>');
      }
      res.setHeader('content-type', 'image/png');
      res.setHeader('content-length', String(64 * 1024 * 1024));
      res.write(png);
      setTimeout(() => res.destroy(), 200);
    });
    const service = importer('127.0.0.1');
    const who = await actor();
    await expect(service.importImage(who, {}, `${base}/page`)).rejects.toThrow(/image/);
    await expect(service.importImage(who, {}, `${base}/svg`)).rejects.toThrow(/image/);
    await expect(service.importImage(who, {}, `${base}/liar`)).rejects.toThrow(/PNG, JPEG/);
    await expect(service.importImage(who, {}, `${base}/huge`)).rejects.toThrow(/too large/);
    expect(fs.existsSync(disk('assets'))).toBe(false);
  });
});
