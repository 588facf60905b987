import { describe, expect, it } from 'vitest';
import { runProgram } from './tools.ts';

describe('programs the server runs', () => {
  it('never see its settings', async () => {
    process.env.NIMBUS_SECRET_KEY = 'not-for-programs';
    try {
      const out = await runProgram('env', [], { signal: new AbortController().signal });
      expect(out.toString()).toContain('PATH=');
      expect(out.toString()).not.toContain('not-for-programs');
    } finally {
      delete process.env.NIMBUS_SECRET_KEY;
    }
  });
});

describe('the memory of programs the server runs', () => {
  it('is bounded: a program that takes more is stopped, one that does not runs', async () => {
    const signal = new AbortController().signal;
    const greedy = ['-e', 'Buffer.alloc(512 * 1024 * 1024, 1); console.log("took it")'];
    await expect(
      runProgram(process.execPath, greedy, { signal, maxMemory: 256 * 1024 * 1024 }),
    ).rejects.toThrow(/failed/);
    const modest = await runProgram(process.execPath, ['-e', 'console.log("fine")'], {
      signal,
      maxMemory: 256 * 1024 * 1024,
    });
    expect(modest.toString()).toContain('fine');
  });
});
