import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { SEED_MENUS, USER_ROLE, USER_ROLE_MENUS } from '@nimbus/contract';
import { zipToBuffer } from '../../src/lib/zip.ts';
import { call, makeUser, putFile, type CallResult, useAdminApp } from '../harness.ts';
import { makeShare } from '../share-fixtures.ts';

// Each file authority, taken away from the user role, closes every action that needs it: the
// server refuses (403, code 8) whatever the client shows. The web app hides the same actions
// (e2e/authorities.e2e.ts).

const { t, admin } = useAdminApp();

interface Fixture {
  token: string;
  userId: string;
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
  'cloud:file:share': [
    [
      'share',
      (f) => call(t.app, 'POST', '/share/generate', { token: f.token, body: { fileId: f.fileId } }),
    ],
  ],
};

/** A user with a file, a folder, an archive and a file in the trash, then the role narrowed. */
async function userWithout(authority: string | null): Promise<Fixture> {
  const f = await filesOfAUser();
  await narrowUserRole(authority);
  return f;
}

/** The user role with every menu except those granting `authority` (all of them for null). */
async function narrowUserRole(authority: string | null): Promise<void> {
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
}

async function filesOfAUser(): Promise<Fixture> {
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
  const folderId = folder.body.data!.id;
  return {
    token: user.token,
    userId: user.userId,
    username: user.username,
    fileId,
    folderId,
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

// ---- bytes -------------------------------------------------------------------------------------
// What each authority allows of a file's bytes (docs/ARCHITECTURE.md "Menus and roles"): without
// cloud:file:download a role still previews (bytes shown inline by the app's viewers: media
// whole, text), and receives nothing as a download (an attachment, a zip, a WebDAV GET, an
// earlier version or its history); a share of theirs and a mount of someone's share give no more.

interface Bytes extends Fixture {
  password: string;
  pictureId: string;
  notesId: string;
  versionId: string;
  shareId: string;
  sharedId: string;
  mounter: string;
}

type Use = 'download' | 'preview';
type ByteRoute = [
  label: string,
  use: Use,
  run: (b: Bytes) => Promise<{ status: number; code?: number }>,
];

const inject = async (
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string> = {},
  payload?: string,
) => {
  const res = await t.app.inject({ method, url, headers, payload });
  let code: number | undefined;
  try {
    code = res.json<{ code?: number }>().code;
  } catch {
    code = undefined;
  }
  return { status: res.statusCode, code };
};
const as = (token: string) => ({ 'nimbus-token': token });

/** Every route that sends a file's bytes (or what its versions were), and what it is. */
const BYTE_ROUTES: ByteRoute[] = [
  ['file by path', 'preview', (b) => inject('GET', `/api/file/${b.username}/a.txt`, as(b.token))],
  [
    'file by path, as a download',
    'download',
    (b) => inject('GET', `/api/file/${b.username}/a.txt?o=download`, as(b.token)),
  ],
  [
    'file by path that only downloads (an archive)',
    'download',
    (b) => inject('GET', `/api/file/${b.username}/z.zip`, as(b.token)),
  ],
  ['file by id', 'preview', (b) => inject('GET', `/api/pre-file/${b.fileId}/a.txt`, as(b.token))],
  [
    'file by id, as a download',
    'download',
    (b) => inject('GET', `/api/pre-file/${b.fileId}/a.txt?o=download`, as(b.token)),
  ],
  [
    'file by id that only downloads (an archive)',
    'download',
    (b) => inject('GET', `/api/pre-file/${b.zipId}/z.zip`, as(b.token)),
  ],
  [
    'image viewer',
    'preview',
    (b) => inject('GET', `/api/view/image?id=${b.pictureId}`, as(b.token)),
  ],
  [
    'thumbnail',
    'preview',
    (b) => inject('GET', `/api/view/thumbnail?id=${b.pictureId}`, as(b.token)),
  ],
  [
    'whether a file may be had',
    'download',
    (b) => inject('GET', `/api/isAllowDownload?fileIds=${b.fileId}`, as(b.token)),
  ],
  [
    'text preview',
    'preview',
    (b) => inject('GET', `/api/preview/text?id=${b.fileId}`, as(b.token)),
  ],
  [
    'whether a zip may be had',
    'download',
    (b) => inject('GET', `/api/isAllowPackageDownload?fileIds=${b.fileId}`, as(b.token)),
  ],
  [
    'zip of a selection',
    'download',
    (b) => inject('GET', `/api/packageDownload?fileIds=${b.fileId}`, as(b.token)),
  ],
  [
    'zip of a long selection (a form)',
    'download',
    (b) =>
      inject(
        'POST',
        '/api/packageDownload',
        { 'content-type': 'application/x-www-form-urlencoded' },
        new URLSearchParams({ fileIds: b.fileId, 'nimbus-token': b.token }).toString(),
      ),
  ],
  [
    'versions of a file',
    'download',
    (b) => inject('GET', `/api/history/list?fileId=${b.notesId}`, as(b.token)),
  ],
  [
    'versions of a file by path',
    'download',
    (b) => inject('GET', '/api/history/path/list?path=%2Fnotes.md', as(b.token)),
  ],
  [
    'an earlier version as text',
    'download',
    (b) => inject('GET', `/api/history/preview/text?id=${b.versionId}`, as(b.token)),
  ],
  [
    'an earlier version streamed',
    'download',
    (b) => inject('GET', `/api/history/preview/text/stream?id=${b.versionId}`, as(b.token)),
  ],
  [
    'an earlier version’s bytes',
    'download',
    (b) => inject('GET', `/api/history/preview/file?id=${b.versionId}`, as(b.token)),
  ],
  [
    'versions in the office editor’s shape',
    'download',
    (b) => inject('GET', `/api/history/office/list?fileId=${b.notesId}`, as(b.token)),
  ],
  [
    'WebDAV GET',
    'download',
    (b) =>
      inject('GET', '/webdav/a.txt', {
        authorization: `Basic ${Buffer.from(`${b.username}:${b.password}`).toString('base64')}`,
      }),
  ],
  [
    'a visitor of their share: preview',
    'preview',
    (b) => inject('GET', `/api/public/s/preview/n.txt?shareId=${b.shareId}&fileId=${b.sharedId}`),
  ],
  [
    'a visitor of their share: text preview',
    'preview',
    (b) => inject('GET', `/api/public/s/preview/text?shareId=${b.shareId}&fileId=${b.sharedId}`),
  ],
  [
    'a visitor of their share: download',
    'download',
    (b) => inject('GET', `/api/public/s/download/n.txt?shareId=${b.shareId}&fileId=${b.sharedId}`),
  ],
  [
    'a visitor of their share: file by id, as a download',
    'download',
    (b) => inject('GET', `/api/share-file/${b.sharedId}/n.txt?shareId=${b.shareId}&o=download`),
  ],
  [
    'a visitor of their share: zip',
    'download',
    (b) =>
      inject('GET', `/api/public/s/packageDownload?shareId=${b.shareId}&fileIds=${b.sharedId}`),
  ],
  [
    'a mounter of the share: file by id',
    'preview',
    (b) => inject('GET', `/api/pre-file/${b.sharedId}/n.txt`, as(b.mounter)),
  ],
  [
    'a mounter of the share: file by id, as a download',
    'download',
    (b) => inject('GET', `/api/pre-file/${b.sharedId}/n.txt?o=download`, as(b.mounter)),
  ],
  [
    'a mounter of the share: text preview',
    'preview',
    (b) => inject('GET', `/api/preview/text?id=${b.sharedId}`, as(b.mounter)),
  ],
  [
    'a mounter of the share: versions in the office editor’s shape',
    'download',
    (b) => inject('GET', `/api/history/office/list?fileId=${b.sharedId}`, as(b.mounter)),
  ],
];

/**
 * A user's files (as above), a markdown file with an earlier version, a public share of a folder
 * with a file in it, mounted by another user of the same role; then the role narrowed.
 */
async function bytesWithout(authority: string | null): Promise<Bytes> {
  const f = await filesOfAUser();
  const owner = { userId: f.userId, username: f.username };
  const notesId = await putFile(t, owner, '/', 'notes.md', '# one');
  const saved = await call(t.app, 'POST', '/markdown/edit', {
    token: f.token,
    body: {
      fileId: notesId,
      contentText: '# two',
      baseHash: createHash('sha256').update('# one').digest('hex'),
    },
  });
  expect(saved.body.code, saved.body.message).toBe(0);
  const versions = await call<Array<{ id: string }>>(t.app, 'GET', '/history/list', {
    token: f.token,
    query: { fileId: notesId, pageIndex: 1, pageSize: 10 },
  });
  const versionId = versions.body.data![0]!.id;
  const sharedId = await putFile(t, owner, '/box', 'n.txt', 'shared note');
  const picture = await sharp({
    create: { width: 400, height: 300, channels: 3, background: '#2a6' },
  })
    .png()
    .toBuffer();
  const pictureId = await putFile(t, owner, '/', 'p.png', picture);
  const share = await makeShare(t, f.token, { fileId: f.folderId, allowDownload: true });
  const mounter = await makeUser(t.app, admin.token);
  const mounted = await call(t.app, 'PUT', '/share/mount-folder', {
    token: mounter.token,
    body: { shareId: share.shareId, fileId: '0' },
  });
  expect(mounted.body.code, mounted.body.message).toBe(0);
  await narrowUserRole(authority);
  return {
    ...f,
    password: 'user-secret',
    pictureId,
    notesId,
    versionId,
    shareId: share.shareId,
    sharedId,
    mounter: mounter.token,
  };
}

describe('what each authority allows of the bytes', () => {
  const FILE_AUTHORITIES = [null, ...Object.keys(ATTEMPTS), 'cloud:file:download'];
  for (const authority of FILE_AUTHORITIES) {
    it(`${authority ? `without ${authority}` : 'with every authority'}, every byte route answers as documented`, async () => {
      const b = await bytesWithout(authority);
      const refused = authority === 'cloud:file:download' ? new Set<Use>(['download']) : new Set();
      const wrong: string[] = [];
      for (const [label, use, run] of BYTE_ROUTES) {
        const res = await run(b);
        // an API refusal is the envelope with code 8; WebDAV's is its status alone
        const answer = refused.has(use)
          ? res.status === 403 && (res.code === 8 || res.code === undefined)
          : res.status < 300;
        if (!answer) wrong.push(`${label}: ${res.status} ${res.code}`);
      }
      expect(wrong).toEqual([]);
      // some thirty requests, a thumbnail drawn among them
    }, 120_000);
  }
});

describe('history follows the bytes', () => {
  /** A folder shared by the administrator with a document edited once, mounted by a user. */
  async function mountedDocument(allowDownload: boolean) {
    const folder = await call<{ id: string }>(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'team' },
    });
    const owner = { userId: admin.userId, username: 'admin' };
    const doc = await putFile(t, owner, '/team', 'plan.md', '# one');
    const saved = await call(t.app, 'POST', '/markdown/edit', {
      token: admin.token,
      body: {
        fileId: doc,
        contentText: '# two',
        baseHash: createHash('sha256').update('# one').digest('hex'),
      },
    });
    expect(saved.body.code, saved.body.message).toBe(0);
    const share = await makeShare(t, admin.token, { fileId: folder.body.data!.id, allowDownload });
    const mounter = await makeUser(t.app, admin.token);
    const mounted = await call(t.app, 'PUT', '/share/mount-folder', {
      token: mounter.token,
      body: { shareId: share.shareId, fileId: '0' },
    });
    expect(mounted.body.code, mounted.body.message).toBe(0);
    return { doc, share, mounter };
  }

  const editorsOf = (token: string, fileId: string) =>
    call<{ history: Array<{ user: { name: string } }> }>(t.app, 'GET', '/history/office/list', {
      token,
      query: { fileId },
    });

  it('a mounter of a share without downloads learns nothing of who edited its files', async () => {
    const { doc, mounter } = await mountedDocument(false);
    // the current content is theirs to preview
    const preview = await call(t.app, 'GET', '/preview/text', {
      token: mounter.token,
      query: { id: doc },
    });
    expect(preview.status).toBe(200);
    const history = await editorsOf(mounter.token, doc);
    expect([history.status, history.body.code]).toEqual([403, 8]);
    expect(JSON.stringify(history.body)).not.toContain('admin');
    // another user's versions are never found through the owner's history routes
    const list = await call(t.app, 'GET', '/history/list', {
      token: mounter.token,
      query: { fileId: doc, pageIndex: 1, pageSize: 10 },
    });
    expect(list.status).toBe(404);
  });

  it('a mounter of a share with downloads sees the versions, unless their role lacks downloads', async () => {
    const { doc, mounter } = await mountedDocument(true);
    const history = await editorsOf(mounter.token, doc);
    expect(history.body.code, history.body.message).toBe(0);
    expect(history.body.data!.history.map((v) => v.user.name)).toEqual(['admin', 'admin']);
    await narrowUserRole('cloud:file:download');
    const narrowed = await editorsOf(mounter.token, doc);
    expect([narrowed.status, narrowed.body.code]).toEqual([403, 8]);
  });

  it('a share tells its visitors downloads are off when its owner may not download', async () => {
    const f = await filesOfAUser();
    const share = await makeShare(t, f.token, { fileId: f.folderId, allowDownload: true });
    const facts = async () => {
      const res = await call(t.app, 'GET', '/public/access-share', {
        query: { share: share.shareId },
      });
      return (res.body.props?.share as { allowDownload?: boolean }).allowDownload;
    };
    expect(await facts()).toBe(true);
    await narrowUserRole('cloud:file:download');
    expect(await facts()).toBe(false);
  });

  it('a mount tells its mounter downloads are off when their role lacks them', async () => {
    const { mounter } = await mountedDocument(true);
    const allowed = async () =>
      (
        await call<Array<{ allowDownload: boolean }>>(t.app, 'GET', '/mount/list', {
          token: mounter.token,
        })
      ).body.data!.map((m) => m.allowDownload);
    expect(await allowed()).toEqual([true]);
    await narrowUserRole('cloud:file:download');
    expect(await allowed()).toEqual([false]);
  });
});
