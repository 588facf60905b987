import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../test/tools.ts';
import { sandboxState, sandboxed } from './sandbox.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-sandbox-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs `program args` as the sandbox would, with these paths; its exit status and output. */
function run(program: string, args: string[], paths: { read: string[]; write: string[] }) {
  const [command, argv] = sandboxed(program, args, paths);
  const out = spawnSync(command, argv, { encoding: 'utf8' });
  return { status: out.status, stdout: out.stdout };
}

// CI installs bubblewrap (and fails here without it); elsewhere a machine without it skips
describe.skipIf(skipWithout(sandboxState().sandboxed))('the sandbox', () => {
  it('is there where the tests run', () => {
    expect(sandboxState()).toEqual({ sandboxed: true });
  });

  it('shows a program the file it reads, and no other', () => {
    const given = path.join(dir, 'given.txt');
    const other = path.join(dir, 'other.txt');
    fs.writeFileSync(given, 'mine');
    fs.writeFileSync(other, 'someone else’s');
    expect(run('cat', [given], { read: [given], write: [] })).toEqual({
      status: 0,
      stdout: 'mine',
    });
    expect(run('cat', [other], { read: [given], write: [] }).status).not.toBe(0);
  });

  it('lets it write to its own folder only', () => {
    const out = fs.mkdtempSync(path.join(dir, 'out-'));
    const elsewhere = fs.mkdtempSync(path.join(dir, 'elsewhere-'));
    expect(run('touch', [path.join(out, 'made')], { read: [], write: [out] }).status).toBe(0);
    expect(fs.existsSync(path.join(out, 'made'))).toBe(true);
    run('touch', [path.join(elsewhere, 'made')], { read: [], write: [out] });
    expect(fs.existsSync(path.join(elsewhere, 'made'))).toBe(false);
  });

  it('gives it no network: only a loopback of its own, with nothing listening', () => {
    // the interfaces it sees: `lo` alone, down (no address to reach anything by)
    const seen = run('cat', ['/proc/net/dev'], { read: [], write: [] });
    expect(seen.status).toBe(0);
    const interfaces = seen.stdout
      .split('\n')
      .slice(2)
      .map((line) => line.split(':')[0]!.trim())
      .filter(Boolean);
    expect(interfaces).toEqual(['lo']);
  });
});
