import { describe, expect, it } from 'vitest';
import { Gate } from './gate.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('Gate', () => {
  it('runs work of one key one at a time, in the order it arrived', async () => {
    const gate = new Gate();
    const seen: string[] = [];
    const step = (name: string) =>
      gate.run('alice', async () => {
        seen.push(`${name} in`);
        await tick();
        seen.push(`${name} out`);
      });
    await Promise.all([step('a'), step('b'), step('c')]);
    expect(seen).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
  });

  it('lets different keys run side by side', async () => {
    const gate = new Gate();
    let together = 0;
    let most = 0;
    const step = (key: string) =>
      gate.run(key, async () => {
        most = Math.max(most, ++together);
        await tick();
        together -= 1;
      });
    await Promise.all([step('alice'), step('bob')]);
    expect(most).toBe(2);
  });

  it('goes on after a failure', async () => {
    const gate = new Gate();
    const failed = gate.run('alice', () => Promise.reject(new Error('no')));
    await expect(failed).rejects.toThrow('no');
    await expect(gate.run('alice', () => Promise.resolve(7))).resolves.toBe(7);
  });

  it('holds as many at a time as its size says when a slot is wanted', async () => {
    let size = 2;
    const gate = new Gate(() => Promise.resolve(size));
    let together = 0;
    let most = 0;
    const step = () =>
      gate.run('ocr', async () => {
        most = Math.max(most, ++together);
        await tick();
        together -= 1;
      });
    await Promise.all([step(), step(), step(), step()]);
    expect(most).toBe(2);
    size = 1;
    most = 0;
    await Promise.all([step(), step(), step()]);
    expect(most).toBe(1);
  });
});
