import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-precompress-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the build’s compressed copies', () => {
  it('are written beside each text file worth it, and hold its exact bytes', async () => {
    const script = `export const x = ${JSON.stringify('abc'.repeat(2000))};`;
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.mkdirSync(path.join(dir, 'vditor', 'dist'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.html'), `<html>${'<p></p>'.repeat(400)}</html>`);
    fs.writeFileSync(path.join(dir, 'assets', 'main-1a2b.js'), script);
    fs.writeFileSync(path.join(dir, 'vditor', 'dist', 'lute.min.js'), script);
    // too small to gain, an image already compressed, and bytes that do not shrink
    fs.writeFileSync(path.join(dir, 'assets', 'tiny.js'), 'let a;');
    fs.writeFileSync(path.join(dir, 'logo.png'), Buffer.alloc(5000, 1));
    fs.writeFileSync(path.join(dir, 'assets', 'random.js'), randomBytes(5000));

    const done = await precompressDir(dir);
    expect(done).toEqual(
      ['assets/main-1a2b.js', 'index.html', 'vditor/dist/lute.min.js'].map((f) =>
        f.split('/').join(path.sep),
      ),
    );
    for (const file of done) {
      const original = fs.readFileSync(path.join(dir, file));
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, `${file}.br`)))).toEqual(
        original,
      );
      expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, `${file}.gz`)))).toEqual(original);
    }
    expect(fs.existsSync(path.join(dir, 'assets', 'tiny.js.br'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'logo.png.br'))).toBe(false);
  });
});
