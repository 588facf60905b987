import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Files worth compressing: text and uncompressed binary formats, never images or fonts. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|wasm|ttf|otf|pfb|xml|map)$/i;
/** Below this size the headers of a compressed answer outweigh what it saves. */
const MIN_BYTES = 1024;

/**
 * Brotli's best (and slowest) quality for the app's own files, which every visit loads; a quick
 * one for the editors' and viewers' libraries (tens of megabytes, most of them never loaded).
 */
const qualityOf = (file: string) =>
  file.startsWith(`assets${path.sep}`) || !file.includes(path.sep) ? 11 : 5;

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every compressible file of `dir` that
 * gets smaller by a tenth at least, so the server can answer `Accept-Encoding` without
 * compressing on each request. Returns the files compressed.
 */
export async function precompressDir(dir: string): Promise<string[]> {
  const candidates = filesUnder(dir).filter((file) => COMPRESSIBLE.test(file));
  const done: string[] = [];
  // a few at a time: zlib works on the thread pool, so every core helps
  const queue = [...candidates];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const full = path.join(dir, file);
      const bytes = await fs.promises.readFile(full);
      if (bytes.length < MIN_BYTES) continue;
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: qualityOf(file),
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzip(bytes, { level: qualityOf(file) === 11 ? 9 : 6 }),
      ]);
      if (br.length > bytes.length * 0.9) continue;
      await fs.promises.writeFile(`${full}.br`, br);
      await fs.promises.writeFile(`${full}.gz`, gz);
      done.push(file);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return done.sort();
}

/** The build's last step: compressed copies of everything it wrote (the app and the viewers). */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'nimbus-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      async handler() {
        await precompressDir(outDir);
      },
    },
  };
}
