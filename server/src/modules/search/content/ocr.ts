import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { OCR_ENGINES, type OcrEngineName } from '@nimbus/contract';
import { Gate } from '../../../lib/gate.ts';
import { findProgram, runProgram } from './tools.ts';
import { joinCjkSpacing, tidy } from './text.ts';

export { OCR_ENGINES, type OcrEngineName };

/** Languages read from images: Simplified Chinese and English. */
const LANGUAGES = ['chi_sim', 'eng'];
/** An idle in-process engine is shut down after this long (it holds ~150 MB). */
const WASM_IDLE_MS = 60_000;

export interface OcrAvailability {
  /** The tesseract program and the languages it has of the ones wanted. */
  tesseract: boolean;
  tesseractLanguages: string[];
  /** The in-process engine (tesseract.js with its npm language data). */
  tesseractJs: boolean;
}

interface WasmWorker {
  recognize(image: string): Promise<{ data: { text: string } }>;
  terminate(): Promise<unknown>;
}

const require = createRequire(import.meta.url);

function wasmLanguageFile(lang: string): string | null {
  try {
    const dir = path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
    return path.join(dir, '4.0.0', `${lang}.traineddata.gz`);
  } catch {
    return null;
  }
}

/**
 * Text from images. The tesseract program when installed (one process per image, single
 * threaded so the configured parallelism is the CPU it takes); otherwise tesseract.js in
 * process with the language data installed from npm: no network either way.
 */
export class Ocr {
  private availability: OcrAvailability | undefined;
  private wasm: Promise<WasmWorker> | undefined;
  /** The in-process engine reads one image at a time (this process's engine: local). */
  private readonly wasmTurns = new Gate();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly cacheDir: string) {}

  available(): OcrAvailability {
    if (this.availability) return this.availability;
    let languages: string[] = [];
    const program = findProgram('tesseract');
    if (program) {
      const listed = spawnSync(program, ['--list-langs'], { encoding: 'utf8', timeout: 10_000 });
      const known = new Set(`${listed.stdout}\n${listed.stderr}`.split('\n').map((l) => l.trim()));
      languages = LANGUAGES.filter((l) => known.has(l));
    }
    let wasm = false;
    try {
      require.resolve('tesseract.js');
      wasm = LANGUAGES.every((l) => wasmLanguageFile(l) !== null);
    } catch {
      wasm = false;
    }
    this.availability = {
      tesseract: program !== null && languages.length > 0,
      tesseractLanguages: languages,
      tesseractJs: wasm,
    };
    return this.availability;
  }

  /** The engine that will run for a configured choice, or null when none is installed. */
  engineFor(choice: OcrEngineName): OcrEngineName | null {
    const a = this.available();
    if (choice === 'tesseract.js')
      return a.tesseractJs ? 'tesseract.js' : a.tesseract ? 'tesseract' : null;
    return a.tesseract ? 'tesseract' : a.tesseractJs ? 'tesseract.js' : null;
  }

  async recognize(image: string, choice: OcrEngineName, signal: AbortSignal): Promise<string> {
    const engine = this.engineFor(choice);
    if (!engine) throw new Error('No OCR engine is installed');
    const raw =
      engine === 'tesseract' ? await this.cli(image, signal) : await this.inProcess(image, signal);
    return tidy(joinCjkSpacing(raw));
  }

  private async cli(image: string, signal: AbortSignal): Promise<string> {
    const out = await runProgram(
      findProgram('tesseract')!,
      [image, 'stdout', '-l', this.available().tesseractLanguages.join('+'), '--psm', '3'],
      {
        signal,
        timeoutMs: 180_000,
        env: { OMP_THREAD_LIMIT: '1' },
        sandbox: { read: [image], write: [] },
      },
    );
    return out.toString('utf8');
  }

  private async inProcess(image: string, signal: AbortSignal): Promise<string> {
    return this.wasmTurns.run('wasm', async () => {
      signal.throwIfAborted();
      clearTimeout(this.idleTimer);
      const worker = await (this.wasm ??= this.startWasm());
      try {
        return (await worker.recognize(image)).data.text;
      } finally {
        this.idleTimer = setTimeout(() => void this.close().catch(() => undefined), WASM_IDLE_MS);
        this.idleTimer.unref();
      }
    });
  }

  private async startWasm(): Promise<WasmWorker> {
    // both languages must sit in one folder for the engine
    const dir = path.join(this.cacheDir, 'tessdata');
    await fsp.mkdir(dir, { recursive: true });
    for (const lang of LANGUAGES) {
      const target = path.join(dir, `${lang}.traineddata.gz`);
      const exists = await fsp.stat(target).then(
        () => true,
        () => false,
      );
      if (!exists) await fsp.copyFile(wasmLanguageFile(lang)!, target);
    }
    const { createWorker } = (await import('tesseract.js')) as unknown as {
      createWorker: (langs: string[], oem: number, options: object) => Promise<WasmWorker>;
    };
    return createWorker(LANGUAGES, 1, { langPath: dir, cacheMethod: 'none', gzip: true });
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.wasm;
    this.wasm = undefined;
    if (worker) await (await worker.catch(() => null))?.terminate();
  }
}
