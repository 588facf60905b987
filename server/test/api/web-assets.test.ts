import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../harness.ts';

// The web app's files as the build leaves them: each with brotli and gzip copies beside it.
const APP_JS = `console.log(${JSON.stringify('nimbus '.repeat(400))});`;
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/main-abc123.js"></script></head><body>${'<div></div>'.repeat(200)}</body></html>`;

let web: TestApp;
let webDir: string;

function writeWithCopies(file: string, text: string) {
  fs.writeFileSync(file, text);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
}

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-web-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.mkdirSync(path.join(webDir, 'vditor'));
  writeWithCopies(path.join(webDir, 'index.html'), INDEX);
  writeWithCopies(path.join(webDir, 'assets', 'main-abc123.js'), APP_JS);
  writeWithCopies(path.join(webDir, 'vditor', 'lute.min.js'), APP_JS);
  web = await makeTestApp({ webDir });
});
afterAll(async () => {
  await web.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  web.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  });

describe('the web app’s files', () => {
  it('go out brotli-compressed to a browser that takes brotli, gzip to one that takes gzip', async () => {
    for (const url of ['/assets/main-abc123.js', '/', '/login']) {
      const br = await get(url, 'gzip, deflate, br');
      expect(br.statusCode, url).toBe(200);
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers.vary, url).toMatch(/accept-encoding/i);
      const text = zlib.brotliDecompressSync(br.rawPayload).toString();
      expect(text, url).toBe(url.endsWith('.js') ? APP_JS : INDEX);
      expect(br.rawPayload.length, url).toBeLessThan(text.length / 4);

      const gz = await get(url, 'gzip');
      expect(gz.headers['content-encoding'], url).toBe('gzip');
      expect(zlib.gunzipSync(gz.rawPayload).toString(), url).toBe(text);

      const plain = await get(url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.body, url).toBe(text);
    }
    const js = await get('/assets/main-abc123.js', 'br');
    expect(js.headers['content-type']).toMatch(/javascript/);
  });

  it('are kept a year when their name carries their hash, and asked again otherwise', async () => {
    const hashed = await get('/assets/main-abc123.js', 'br');
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/login', '/vditor/lute.min.js']) {
      const res = await get(url, 'br');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    // asked again: unchanged, so nothing but headers
    const first = await get('/vditor/lute.min.js', 'br');
    const again = await web.app.inject({
      method: 'GET',
      url: '/vditor/lute.min.js',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});
