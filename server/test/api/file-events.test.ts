import { beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/events/bus.ts';
import { call, makeUser, putFile, useAdminApp } from '../harness.ts';

// The live messages a change of the tree sends, in the shapes the original client reads
// (API-NOTES §2): `deleteFile` carries the path of the folder the item left, and sweep, restore
// and empty trash say how they went with `operationTips`.

const { t, admin } = useAdminApp({ once: true });
let user: { token: string; userId: string; username: string };
const seen: LiveEvent[] = [];

beforeAll(async () => {
  user = await makeUser(t.app, admin.token, { quota: 1 });
  t.app.services.events.subscribe(user.userId, (event) => seen.push(event));
});

/** The events `action` publishes, waited for until `done` holds (a few seconds at most). */
async function eventsOf(action: () => Promise<unknown>, done: (e: LiveEvent[]) => boolean) {
  seen.length = 0;
  await action();
  const deadline = Date.now() + 5000;
  while (!done(seen) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return [...seen];
}

const folder = async (parent: string, name: string) => {
  const res = await call<{ id: string }>(t.app, 'POST', '/new_folder', {
    token: user.token,
    query: { currentDirectory: parent, filename: name },
  });
  expect(res.body.code).toBe(0);
  return res.body.data!.id;
};

describe('live messages of deletes, moves and the trash', () => {
  it('names the folder an item left when it goes to the trash, with its id beside', async () => {
    await folder('/', 'notes');
    const id = await putFile(t, user, '/notes/', 'a.txt', 'a');
    const events = await eventsOf(
      () => call(t.app, 'DELETE', '/delete', { token: user.token, query: { fileIds: [id] } }),
      (e) => e.some((x) => x.url === 'operationTips'),
    );
    const gone = events.find((e) => e.url === 'deleteFile');
    expect(gone).toMatchObject({ url: 'deleteFile', body: '/notes/', fileId: id });
    expect(events.find((e) => e.url === 'operationTips')?.body).toMatchObject({
      operation: 'delete',
      success: true,
    });
  });

  it('names the folder a moved item left, then sends the item where it went', async () => {
    const to = await folder('/', 'moved-to');
    const id = await putFile(t, user, '/', 'b.txt', 'b');
    const events = await eventsOf(
      () => call(t.app, 'GET', '/move', { token: user.token, query: { froms: [id], to } }),
      (e) => e.some((x) => x.url === 'createFile'),
    );
    expect(events.find((e) => e.url === 'deleteFile')).toMatchObject({ body: '/', fileId: id });
    expect(events.find((e) => e.url === 'createFile')?.body).toMatchObject({
      id,
      path: '/moved-to/',
    });
  });

  it('says how a restore, a delete for good and emptying the trash went', async () => {
    const ids = [
      await putFile(t, user, '/', 'c.txt', 'c'),
      await putFile(t, user, '/', 'd.txt', 'd'),
      await putFile(t, user, '/', 'e.txt', 'e'),
    ];
    const trashed = await call(t.app, 'DELETE', '/delete', {
      token: user.token,
      query: { fileIds: ids },
    });
    expect(trashed.body).toMatchObject({ code: 0 });
    // events are delivered after the answer: the trash's own tip may still arrive meanwhile
    const tip = (operation: string) => (e: LiveEvent) =>
      e.url === 'operationTips' && (e.body as { operation: string }).operation === operation;
    const tipOf = (events: LiveEvent[], operation: string) => events.find(tip(operation))?.body;

    const restored = await eventsOf(
      () => call(t.app, 'POST', '/restore', { token: user.token, query: { fileIds: [ids[0]!] } }),
      (e) => e.some(tip('restore')),
    );
    expect(tipOf(restored, 'restore')).toEqual({ operation: 'restore', success: true, msg: '' });

    const swept = await eventsOf(
      () => call(t.app, 'DELETE', '/sweep', { token: user.token, query: { fileIds: [ids[1]!] } }),
      (e) => e.some(tip('sweep')),
    );
    expect(tipOf(swept, 'sweep')).toEqual({ operation: 'sweep', success: true, msg: '' });

    const emptied = await eventsOf(
      () => call(t.app, 'DELETE', '/clear-trash', { token: user.token }),
      (e) => e.some(tip('clear-trash')),
    );
    expect(tipOf(emptied, 'clear-trash')).toEqual({
      operation: 'clear-trash',
      success: true,
      msg: '',
    });
  });
});
