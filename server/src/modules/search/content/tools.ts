import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { childEnv } from '../../../lib/child-env.ts';
import { sandboxed, type SandboxPaths } from '../../../lib/sandbox.ts';

const found = new Map<string, string | null>();

/** The path of a program on PATH, or null; looked up once. */
export function findProgram(name: string): string | null {
  if (found.has(name)) return found.get(name)!;
  let hit: string | null = null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      hit = candidate;
      break;
    } catch {
      // not here
    }
  }
  found.set(name, hit);
  return hit;
}

export interface RunOptions {
  signal: AbortSignal;
  timeoutMs?: number;
  /** Stop reading (and end the program) after this many bytes of output. */
  maxOutput?: number;
  env?: NodeJS.ProcessEnv;
  /** The most memory the program may take for its data (DEFAULT_MAX_MEMORY unless told). */
  maxMemory?: number;
  /**
   * Run it in the sandbox (lib/sandbox.ts), seeing only these files and folders besides the
   * system's: for programs that decode what users upload.
   */
  sandbox?: SandboxPaths;
}

/**
 * What a program reading an uploaded file may allocate by default: far more than a photo, a page
 * or an archive's dictionary needs, far less than a file made to exhaust the machine would take.
 */
export const DEFAULT_MAX_MEMORY = 3 * 1024 ** 3;

/** Run a program to completion and collect its standard output; a failure throws. */
export function runProgram(program: string, args: string[], options: RunOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    options.signal.throwIfAborted();
    // held to its memory by the kernel (prlimit, util-linux) where that is at hand
    const limiter = findProgram('prlimit');
    const memory = Math.floor(options.maxMemory ?? DEFAULT_MAX_MEMORY);
    const [inner, innerArgs] = options.sandbox
      ? sandboxed(program, args, options.sandbox)
      : [program, args];
    const [command, argv] = limiter
      ? [limiter, [`--data=${memory}`, '--', inner, ...innerArgs]]
      : [inner, innerArgs];
    const child = spawn(command, argv, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childEnv(options.env),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let capped = false;
    const stop = () => child.kill('SIGKILL');
    const timer = setTimeout(stop, options.timeoutMs ?? 120_000);
    options.signal.addEventListener('abort', stop, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (capped) return;
      chunks.push(chunk);
      size += chunk.length;
      if (options.maxOutput !== undefined && size >= options.maxOutput) {
        capped = true;
        stop();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', stop);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', stop);
      if (options.signal.aborted) return reject(options.signal.reason as Error);
      if (code === 0 || capped) return resolve(Buffer.concat(chunks));
      reject(
        new Error(
          `${path.basename(program)} failed: ${stderr.trim().slice(0, 300) || `exit ${code}`}`,
        ),
      );
    });
  });
}
