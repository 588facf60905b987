import { spawn } from 'node:child_process';
import fs from 'node:fs';
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
    const watchers = () =>
      fs.readdirSync('/proc').filter((entry) => {
        if (!/^\d+$/.test(entry)) return false;
        try {
          const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
          return args.includes('leash') && args.includes(String(child.pid));
        } catch {
          return false; // gone meanwhile
        }
      }).length;
    // the watcher is there while the process lives (the count can see it)
    const seen = Date.now() + 5000;
    while (watchers() === 0 && Date.now() < seen)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(watchers()).toBe(1);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    // the watcher sees the process gone within its second and ends: no shell of ours remains
    const deadline = Date.now() + 5000;
    while (watchers() > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(watchers()).toBe(0);
  });
});
