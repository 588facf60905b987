import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { leash } from './leash.ts';
import { freePort } from './free-port.ts';

// A real redis-server for the tests of several nodes; without the program those tests are
// skipped, saying so.

export const REDIS_SERVER = '/usr/bin/redis-server';
export const haveRedis = fs.existsSync(REDIS_SERVER);
if (!haveRedis)
  console.warn(
    `${REDIS_SERVER} is missing (apt-get install redis-server): the tests across nodes through Redis are skipped`,
  );

/** A throwaway redis-server on a free loopback port, nothing saved to disk. */
export async function startRedis(): Promise<{ process: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (child.pid) leash(child.pid);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}): ${out}`));
    });
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return { process: child, url: `redis://127.0.0.1:${port}` };
}

export function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
