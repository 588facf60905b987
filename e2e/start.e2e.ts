import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../server/test/free-port.ts';
import { repoRoot } from './harness.ts';

// `npm start` keeps Nimbus up: a server that dies unexpectedly is started again, with the
// reason in the log, and Ctrl-C still stops everything.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The pid of the server a launcher runs (Linux): its child running the server bundle. */
function serverOf(pid: number): number | undefined {
  const text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  const children = text ? text.split(/\s+/).map(Number) : [];
  // the launcher may have other children (the bundler's service after a build)
  return children.find((child) =>
    fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('main.mjs'),
  );
}

const started: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('starts a server that died unexpectedly again and stops on Ctrl-C', async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-start-'));
    dirs.push(dataDir);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NIMBUS_PORT: String(port),
      NIMBUS_HOST: '127.0.0.1',
      NIMBUS_DATA_DIR: dataDir,
      NIMBUS_LOG_LEVEL: 'warn',
    };
    delete env.NIMBUS_DATABASE_URL;
    const launcher = spawn(process.execPath, [path.join(repoRoot, 'scripts', 'start.mjs')], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(launcher);
    let output = '';
    launcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const health = () => fetch(`http://127.0.0.1:${port}/api/public/health`);

    await until('the first start', () => (output.includes('Nimbus is running at') ? 1 : undefined));
    const first = serverOf(launcher.pid!);
    expect(first, output).toBeGreaterThan(0);

    process.kill(first!, 'SIGKILL');
    await until('the restart', () =>
      output.includes('Nimbus is running again') ? 1 : undefined,
    ).catch((err: Error) => {
      throw new Error(`${err.message}:\n${output}`);
    });
    expect(output).toMatch(/the server was killed by SIGKILL unexpectedly; starting it again/);
    const second = serverOf(launcher.pid!);
    expect(second).not.toBe(first);
    expect((await health()).ok).toBe(true);

    launcher.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => launcher.once('exit', resolve));
    expect(code, output).toBe(0);
    await expect(health()).rejects.toThrow();
  });
});
