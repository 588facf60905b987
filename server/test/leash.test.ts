import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { leash } from './leash.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe('a process started for a test', () => {
  it('ends when the test process is killed, and its watcher with it', async () => {
    // a stand-in for a test process: it starts a long sleep and is then killed outright
    const parent = spawn('sleep', ['60'], { stdio: 'ignore' });
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    leash(child.pid!, parent.pid);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(alive(child.pid!)).toBe(true);
    parent.kill('SIGKILL');
    expect(await until(() => child.exitCode !== null || child.signalCode !== null, 5000)).toBe(
      true,
    );
    expect(child.signalCode).toBe('SIGKILL');
  });

  it('leaves nothing behind when the process stops first', async () => {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    leash(child.pid!);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    // the watcher sees the process gone within its second and ends: no shell of ours remains
    const watchers = async () => {
      const { execFileSync } = await import('node:child_process');
      const out = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
      return out.split('\n').filter((line) => line.includes(`leash ${child.pid} `)).length;
    };
    const deadline = Date.now() + 5000;
    while ((await watchers()) > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await watchers()).toBe(0);
  });
});
