import { describe, expect, it } from 'vitest';
import { InProcessEventBus, type EventUser, type LiveEvent } from './bus.ts';

function busWith(users: Record<string, EventUser>) {
  const lookups: string[] = [];
  const bus = new InProcessEventBus((userId) => {
    lookups.push(userId);
    return Promise.resolve(users[userId]);
  });
  return { bus, lookups };
}

describe('InProcessEventBus', () => {
  it('delivers to the user’s listeners only, in order, with name and used bytes', async () => {
    const { bus } = busWith({
      u1: { username: 'ann', space: 10 },
      u2: { username: 'ben', space: 20 },
    });
    const ann: LiveEvent[] = [];
    const ben: LiveEvent[] = [];
    bus.subscribe('u1', (e) => ann.push(e));
    bus.subscribe('u2', (e) => ben.push(e));
    bus.publish('u1', { url: 'createFile', body: 1 });
    bus.publish('u1', { url: 'deleteFile', body: 2 }, { space: 5 });
    bus.publish('u2', { url: 'updateTags', body: 3 });
    await bus.close();
    expect(ann).toEqual([
      { username: 'ann', url: 'createFile', body: 1, space: 10 },
      { username: 'ann', url: 'deleteFile', body: 2, space: 5 },
    ]);
    expect(ben).toEqual([{ username: 'ben', url: 'updateTags', body: 3, space: 20 }]);
  });

  it('looks nobody up when nobody listens, and once for a burst', async () => {
    const { bus, lookups } = busWith({ u1: { username: 'ann', space: 0 } });
    bus.publish('u1', { url: 'createFile', body: 0 });
    expect(lookups).toEqual([]);
    const got: unknown[] = [];
    bus.subscribe('u1', (e) => got.push(e.body));
    for (let i = 0; i < 100; i++) bus.publish('u1', { url: 'createFile', body: i });
    await bus.close();
    expect(got).toHaveLength(100);
    expect(lookups.length).toBeLessThanOrEqual(2);
  });

  it('stops delivering after unsubscribe, and a failing listener does not stop the others', async () => {
    const { bus } = busWith({ u1: { username: 'ann', space: 0 } });
    const got: unknown[] = [];
    bus.subscribe('u1', () => {
      throw new Error('broken tab');
    });
    const unsubscribe = bus.subscribe('u1', (e) => got.push(e.body));
    bus.publish('u1', { url: 'synced', body: 'a' });
    await new Promise((r) => setTimeout(r, 10));
    unsubscribe();
    bus.publish('u1', { url: 'synced', body: 'b' });
    await bus.close();
    expect(got).toEqual(['a']);
  });

  it('drops events when the user lookup fails, and goes on with later ones', async () => {
    let fail = true;
    const bus = new InProcessEventBus(() =>
      fail ? Promise.reject(new Error('db down')) : Promise.resolve({ username: 'ann', space: 1 }),
    );
    const got: unknown[] = [];
    bus.subscribe('u1', (e) => got.push(e.body));
    bus.publish('u1', { url: 'synced', body: 'lost' });
    await new Promise((r) => setTimeout(r, 10));
    fail = false;
    bus.publish('u1', { url: 'synced', body: 'kept' });
    await bus.close();
    expect(got).toEqual(['kept']);
  });
});
