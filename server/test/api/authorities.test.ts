import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { SEED_MENUS, USER_ROLE, USER_ROLE_MENUS } from '@nimbus/contract';
import { zipToBuffer } from '../../src/lib/zip.ts';
import {
  call,
  makeTestApp,
  makeUser,
  putFile,
  setupAdmin,
  type CallResult,
  type TestApp,
} from '../harness.ts';

// Each file authority, taken away from the user role, closes every action that needs it: the
// server refuses (403, code 8) whatever the client shows. The web app hides the same actions
// (e2e/authorities.e2e.ts).

let t: TestApp;
let admin: { token: string; userId: string };

beforeEach(async () => {
  t = await makeTestApp();
  admin = await setupAdmin(t.app);
});
afterEach(async () => {
  await t.close();
});

interface Fixture {
  token: string;
  username: string;
  fileId: string;
  folderId: string;
  zipId: string;
  trashedId: string;
}

type Attempt = [label: string, run: (f: Fixture) => Promise<CallResult>];

const chunkQuery = () => {
  const bytes = Buffer.from('new bytes');
  return {
    chunkNumber: 1,
    chunkSize: 1024,
    currentChunkSize: bytes.length,
    totalSize: bytes.length,
    totalChunks: 1,
    identifier: createHash('sha256').update(bytes).digest('hex'),
    filename: 'new.txt',
    relativePath: 'new.txt',
  };
};

/** The actions each authority opens, by authority. */
const ATTEMPTS: Record<string, Attempt[]> = {
  'cloud:file:upload': [
    [
      'new folder',
      (f) => call(t.app, 'POST', '/new_folder', { token: f.token, query: { filename: 'n' } }),
    ],
    [
      'new file',
      (f) => call(t.app, 'POST', '/addfile', { token: f.token, query: { fileName: 'n.txt' } }),
    ],
    ['chunk test', (f) => call(t.app, 'GET', '/upload', { token: f.token, query: chunkQuery() })],
    [
      'copy',
      (f) =>
        call(t.app, 'GET', '/copy', {
          token: f.token,
          query: { froms: [f.fileId], to: f.folderId },
        }),
    ],
    [
      'duplicate',
      (f) => call(t.app, 'GET', '/duplicate', { token: f.token, query: { fileId: f.fileId } }),
    ],
    [
      'extract',
      (f) => call(t.app, 'GET', '/unzip', { token: f.token, query: { fileId: f.zipId } }),
    ],
  ],
  'cloud:file:update': [
    [
      'rename',
      (f) =>
        call(t.app, 'GET', '/rename', {
          token: f.token,
          query: { id: f.fileId, newFileName: 'r.txt' },
        }),
    ],
    [
      'move',
      (f) =>
        call(t.app, 'GET', '/move', {
          token: f.token,
          query: { froms: [f.fileId], to: f.folderId },
        }),
    ],
    ['new tag', (f) => call(t.app, 'POST', '/tag/add', { token: f.token, body: { name: 'red' } })],
  ],
  'cloud:file:delete': [
    [
      'trash',
      (f) => call(t.app, 'DELETE', '/delete', { token: f.token, query: { fileIds: [f.fileId] } }),
    ],
    [
      'restore',
      (f) => call(t.app, 'POST', '/restore', { token: f.token, query: { fileIds: [f.trashedId] } }),
    ],
    [
      'sweep',
      (f) => call(t.app, 'DELETE', '/sweep', { token: f.token, query: { fileIds: [f.trashedId] } }),
    ],
    ['empty the trash', (f) => call(t.app, 'DELETE', '/clear-trash', { token: f.token })],
  ],
  'cloud:file:download': [
    [
      'download',
      async (f) => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/file/${f.username}/a.txt?o=download`,
          headers: { 'nimbus-token': f.token },
        });
        return { status: res.statusCode, body: res.json(), headers: res.headers };
      },
    ],
    [
      'zip of a selection',
      async (f) => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/packageDownload?fileIds=${f.fileId}`,
          headers: { 'nimbus-token': f.token },
        });
        return { status: res.statusCode, body: res.json(), headers: res.headers };
      },
    ],
  ],
  'cloud:file:share': [
    [
      'share',
      (f) => call(t.app, 'POST', '/share/generate', { token: f.token, body: { fileId: f.fileId } }),
    ],
  ],
};

/** A user with a file, a folder, an archive and a file in the trash, then the role narrowed. */
async function userWithout(authority: string | null): Promise<Fixture> {
  const user = await makeUser(t.app, admin.token);
  const owner = { userId: user.userId, username: user.username };
  const fileId = await putFile(t, owner, '/', 'a.txt', 'a');
  const trashedId = await putFile(t, owner, '/', 'old.txt', 'old');
  const zipId = await putFile(
    t,
    owner,
    '/',
    'z.zip',
    await zipToBuffer([{ name: 'x', content: 'x' }]),
  );
  const trashed = await call(t.app, 'DELETE', '/delete', {
    token: user.token,
    query: { fileIds: [trashedId] },
  });
  expect(trashed.body.code, trashed.body.message).toBe(0);
  const folder = await call<{ id: string }>(t.app, 'POST', '/new_folder', {
    token: user.token,
    query: { filename: 'box' },
  });
  expect(folder.body.code, folder.body.message).toBe(0);
  // authorities are read at every request: the narrowed role applies at once
  const updated = await call(t.app, 'PUT', '/role/update', {
    token: admin.token,
    body: {
      id: USER_ROLE.id,
      // every menu that grants it: the authority's own entry and a page that needs it
      menuIds: USER_ROLE_MENUS.filter(
        (id) => SEED_MENUS.find((m) => m.id === id)?.authority !== authority,
      ),
    },
  });
  expect(updated.body.code, updated.body.message).toBe(0);
  return {
    token: user.token,
    username: user.username,
    fileId,
    folderId: folder.body.data!.id,
    zipId,
    trashedId,
  };
}

describe('file authorities', () => {
  for (const [authority, attempts] of Object.entries(ATTEMPTS)) {
    it(`without ${authority}, every action that needs it is refused`, async () => {
      const f = await userWithout(authority);
      for (const [label, attempt] of attempts) {
        const res = await attempt(f);
        expect(res.status, `${label}: ${res.body.message}`).toBe(403);
        expect(res.body.code, label).toBe(8);
      }
    });
  }

  it('with every authority, the same actions are not refused', async () => {
    const f = await userWithout(null);
    for (const [label, attempt] of Object.values(ATTEMPTS).flat()) {
      const res = await attempt(f);
      expect(res.status, `${label}: ${res.body.message}`).not.toBe(403);
    }
  });
});
