import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShareView } from '@nimbus/contract';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { multipartBody } from '../upload-client.ts';
import { makeFolder, makeShare, unlock } from '../share-fixtures.ts';

// The access matrix: every public endpoint, asked every way a visitor should be refused.
// Each refusal must be clear (its code and status) and reveal nothing of what lies outside.

const ids: Record<string, string> = {};
let priv: ShareView;
let other: ShareView;
let expired: ShareView;
let cancelled: ShareView;
let bobShare: ShareView;
const tokens: Record<string, string> = {};

/** Names that must never appear in an answer to a visitor of `priv`. */
const SECRETS = ['secret.txt', 'leak.txt', 'o.txt', 'bob.txt', '/shared/', 'shared2'];

const owner = () => ({ userId: admin.userId, username: ADMIN.username });
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

const { t, admin } = useAdminApp({ once: true });
beforeAll(async () => {
  ids.shared = await makeFolder(t, admin.token, '/', 'shared');
  ids.sub = await makeFolder(t, admin.token, '/shared', 'sub');
  ids.in = await putFile(t, owner(), '/shared', 'in.txt', 'inside');
  ids.deep = await putFile(t, owner(), '/shared/sub', 'deep.txt', 'deeper');
  ids.img = await putFile(t, owner(), '/shared', 'img.png', 'png bytes');
  ids.secret = await putFile(t, owner(), '/', 'secret.txt', 'the secret');
  // a sibling whose name starts like the shared folder's: prefixes must not confuse
  await makeFolder(t, admin.token, '/', 'shared2');
  ids.leak = await putFile(t, owner(), '/shared2', 'leak.txt', 'leaked?');
  ids.other = await makeFolder(t, admin.token, '/', 'other');
  ids.o = await putFile(t, owner(), '/other', 'o.txt', 'other share');
  ids.old = await makeFolder(t, admin.token, '/', 'old');
  ids.oldFile = await putFile(t, owner(), '/old', 'old.txt', 'old');
  ids.gone = await makeFolder(t, admin.token, '/', 'gone');
  ids.goneFile = await putFile(t, owner(), '/gone', 'gone.txt', 'gone');

  const bob = await makeUser(t.app, admin.token, { username: 'bob' });
  ids.bobFolder = await makeFolder(t, bob.token, '/', 'bobfolder');
  ids.bob = await putFile(
    t,
    { userId: bob.userId, username: 'bob' },
    '/bobfolder',
    'bob.txt',
    'bob',
  );
  bobShare = await makeShare(t, bob.token, { fileId: ids.bobFolder });

  const ops = ['UPLOAD', 'PUT', 'DELETE'];
  priv = await makeShare(t, admin.token, {
    fileId: ids.shared,
    isPrivacy: true,
    operationPermissionList: ops,
  });
  other = await makeShare(t, admin.token, {
    fileId: ids.other,
    isPrivacy: true,
    operationPermissionList: ops,
  });
  expired = await makeShare(t, admin.token, {
    fileId: ids.old,
    isPrivacy: true,
    operationPermissionList: ops,
  });
  cancelled = await makeShare(t, admin.token, {
    fileId: ids.gone,
    isPrivacy: true,
    operationPermissionList: ops,
  });
  tokens.priv = await unlock(t, priv.shortId, priv.extractionCode!);
  tokens.other = await unlock(t, other.shortId, other.extractionCode!);
  tokens.expired = await unlock(t, expired.shortId, expired.extractionCode!);
  tokens.cancelled = await unlock(t, cancelled.shortId, cancelled.extractionCode!);
  // expire one share (as time would) and cancel another, after their tokens were issued
  await t.database.db
    .updateTable('share')
    .set({ expiresAt: Date.now() - 1000 })
    .where('id', '=', expired.shareId)
    .execute();
  await call(t.app, 'DELETE', '/share/cancel', {
    token: admin.token,
    query: { shareId: cancelled.shareId },
  });
});

interface Answer {
  status: number;
  code: number;
  message: string;
  text: string;
}

type Target = { fileId?: string; path?: string };

/** One public endpoint, asked for a share with a token (or none) about a target. */
interface Endpoint {
  name: string;
  ask(share: ShareView, token: string | undefined, target: Target): Promise<Answer>;
  /** Endpoints about the share as a whole take no target. */
  targeted: boolean;
}

async function inject(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  options: {
    headers?: Record<string, string>;
    query?: Record<string, string | string[]>;
    body?: unknown;
    payload?: Buffer;
  } = {},
): Promise<Answer> {
  const res = await t.app.inject({
    method,
    url: `/api${url}`,
    query: options.query,
    headers: options.headers,
    payload: options.payload ?? (options.body === undefined ? undefined : (options.body as object)),
  });
  let code = Number.NaN;
  let message = '';
  try {
    const json = res.json<{ code: number; message: string }>();
    code = json.code;
    message = json.message;
  } catch {
    // bytes
  }
  return { status: res.statusCode, code, message, text: res.body };
}

const headersOf = (share: ShareView, token?: string): Record<string, string> => ({
  shareid: share.shareId,
  ...(token ? { 'share-token': token } : {}),
});

const targetQuery = (share: ShareView, target: Target): Record<string, string> => ({
  shareId: share.shareId,
  ...(target.fileId ? { fileId: target.fileId } : {}),
  ...(target.path !== undefined ? { path: target.path } : {}),
});

const chunkFields = (relativePath: string, currentDirectory = '/') => {
  const content = 'new bytes';
  return {
    chunkNumber: 1,
    chunkSize: 1024 * 1024,
    currentChunkSize: content.length,
    totalSize: content.length,
    totalChunks: 1,
    identifier: sha(content),
    filename: relativePath.split('/').pop()!,
    relativePath,
    currentDirectory,
  };
};

/** The upload target of a `Target`: a folder id is refused as a target (uploads name folders by path). */
const uploadDir = (target: Target) => target.path ?? '/';

const ENDPOINTS: Endpoint[] = [
  {
    name: 'access-share',
    targeted: false,
    ask: (share, token) =>
      inject('GET', '/public/access-share', {
        query: { share: share.shortId },
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'access-share/open',
    targeted: true,
    ask: (share, token, target) =>
      inject('GET', '/public/access-share/open', {
        query: targetQuery(share, target),
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'file_info',
    targeted: true,
    ask: (share, token, target) =>
      inject('GET', '/public/file_info', {
        query: targetQuery(share, target),
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'preview/text',
    targeted: true,
    ask: (share, token, target) =>
      inject('GET', '/public/s/preview/text', {
        query: targetQuery(share, target),
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'preview/{name}',
    targeted: true,
    ask: (share, token, target) =>
      inject('GET', '/public/s/preview/x.txt', {
        query: { ...targetQuery(share, target), ...(token ? { 'share-token': token } : {}) },
      }),
  },
  {
    name: 'download/{name}',
    targeted: true,
    ask: (share, token, target) =>
      inject('GET', '/public/s/download/x.txt', {
        query: targetQuery(share, target),
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'packageDownload',
    targeted: true,
    ask: (share, token, target) =>
      inject('GET', '/public/s/packageDownload', {
        query: {
          shareId: share.shareId,
          fileIds: target.fileId ?? ids.in!,
          ...(token ? { 'share-token': token } : {}),
        },
      }),
  },
  {
    name: 'share-file/{id}/{token}/{name}',
    targeted: true,
    ask: (share, token, target) =>
      inject('GET', `/share-file/${target.fileId ?? ids.in}/${token ?? 'none'}/x.txt`),
  },
  {
    name: 'share-file/{id}/{name}',
    targeted: true,
    ask: (share, token, target) =>
      inject('GET', `/share-file/${target.fileId ?? ids.in}/x.txt`, {
        query: { shareId: share.shareId },
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'view/thumbnail',
    targeted: true,
    ask: (share, token, target) =>
      inject('GET', '/public/s/view/thumbnail', {
        query: targetQuery(share, target),
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'rename',
    targeted: true,
    ask: (share, token, target) =>
      inject('GET', '/public/rename', {
        query: { ...targetQuery(share, target), newFileName: 'renamed.txt' },
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'delete',
    targeted: true,
    ask: (share, token, target) =>
      inject('DELETE', '/public/delete', {
        query: { shareId: share.shareId, fileIds: target.fileId ?? ids.in! },
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'checkExist',
    targeted: false,
    ask: (share, token, target) =>
      inject('POST', '/public/checkExist', {
        body: { filenames: ['secret.txt'], currentDirectory: uploadDir(target) },
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'upload (test)',
    targeted: false,
    ask: (share, token, target) =>
      inject('GET', '/public/upload', {
        query: Object.fromEntries(
          Object.entries(chunkFields('n.txt', uploadDir(target))).map(([k, v]) => [k, String(v)]),
        ),
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'upload (chunk)',
    targeted: false,
    ask: (share, token, target) => {
      const fields = chunkFields('n.txt', uploadDir(target));
      const { payload, contentType } = multipartBody(fields, Buffer.from('new bytes'), 'n.txt');
      return inject('POST', '/public/upload', {
        payload,
        headers: { ...headersOf(share, token), 'content-type': contentType },
      });
    },
  },
  {
    name: 'merge',
    targeted: false,
    ask: (share, token, target) => {
      const {
        chunkNumber: _n,
        currentChunkSize: _c,
        ...fields
      } = chunkFields('n.txt', uploadDir(target));
      return inject('POST', '/public/merge', {
        query: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])),
        headers: headersOf(share, token),
      });
    },
  },
  {
    name: 'upload-folder',
    targeted: false,
    ask: (share, token, target) =>
      inject('POST', '/public/upload-folder', {
        query: { filename: 'made', currentDirectory: uploadDir(target) },
        headers: headersOf(share, token),
      }),
  },
  {
    name: 'new_folder',
    targeted: false,
    ask: (share, token, target) =>
      inject('POST', '/public/new_folder', {
        query: { shareId: share.shareId, filename: 'made2', currentDirectory: uploadDir(target) },
        headers: headersOf(share, token),
      }),
  },
];

function expectNothingRevealed(answer: Answer, label: string): void {
  for (const secret of SECRETS)
    expect(answer.text, `${label} reveals ${secret}`).not.toContain(secret);
  expect(answer.text, `${label} reveals a share code`).not.toContain(priv.extractionCode!);
}

describe('the access matrix of public share endpoints', () => {
  it('refuses every endpoint of a private share without a token (the share answers its public facts only)', async () => {
    for (const e of ENDPOINTS) {
      const a = await e.ask(priv, undefined, { fileId: ids.in });
      if (e.name === 'access-share') {
        expect(a.code).toBe(0);
        expect(JSON.parse(a.text).data).toMatchObject({ needCode: true, fileName: 'shared' });
        expect(a.text).not.toContain('in.txt');
      } else {
        expect([a.status, a.code, a.message], e.name).toEqual([
          403,
          21,
          'Enter the share code to open this share',
        ]);
      }
      expectNothingRevealed(a, e.name);
    }
  });

  it('refuses a wrong code, a forged token and a token for the wrong code', async () => {
    const wrong = await inject('POST', '/public/valid-share-code', {
      body: { shareId: priv.shareId, shareCode: 'aaaaaa' },
    });
    expect([wrong.status, wrong.code, wrong.message]).toEqual([403, 6, 'The share code is wrong']);
    expectNothingRevealed(wrong, 'valid-share-code');
    const [payload, mac] = tokens.priv!.split('.');
    const forged = [
      'garbage',
      `${payload}.${'A'.repeat(mac!.length)}`,
      // a different share id under the genuine signature
      `${Buffer.from(JSON.stringify({ s: priv.shareId, c: 'x', e: Date.now() + 1e9 })).toString('base64url')}.${mac}`,
    ];
    for (const token of forged)
      for (const e of ENDPOINTS.filter((x) => x.name !== 'access-share')) {
        const a = await e.ask(priv, token, { fileId: ids.in });
        expect([a.status, a.code], `${e.name} with ${token.slice(0, 12)}`).toEqual([403, 21]);
        expectNothingRevealed(a, e.name);
      }
  });

  it('answers an expired share with "expired" everywhere, even with a token issued before', async () => {
    for (const e of ENDPOINTS) {
      const a = await e.ask(expired, tokens.expired, { fileId: ids.oldFile });
      expect([a.status, a.code, a.message], e.name).toEqual([
        410,
        19,
        'This share link has expired',
      ]);
      expect(a.text).not.toContain('old.txt');
    }
    const code = await inject('POST', '/public/valid-share-code', {
      body: { shareId: expired.shortId, shareCode: expired.extractionCode },
    });
    expect(code.status).toBe(410);
    const sharer = await inject('GET', '/public/get/sharer', {
      query: { shareId: expired.shareId },
    });
    expect(sharer.status).toBe(410);
  });

  it('answers a cancelled share with "cancelled" everywhere, even with a token issued before', async () => {
    for (const e of ENDPOINTS) {
      const a = await e.ask(cancelled, tokens.cancelled, { fileId: ids.goneFile });
      expect([a.status, a.code, a.message], e.name).toEqual([
        404,
        23,
        'This share link does not exist or has been cancelled',
      ]);
      expect(a.text).not.toContain('gone.txt');
    }
    const code = await inject('POST', '/public/valid-share-code', {
      body: { shareId: cancelled.shortId, shareCode: cancelled.extractionCode },
    });
    expect(code.status).toBe(404);
  });

  it('refuses a token of another share', async () => {
    for (const e of ENDPOINTS.filter((x) => x.name !== 'access-share')) {
      const a = await e.ask(priv, tokens.other, { fileId: ids.in });
      // the token-in-path form names its share by the token: the file is outside that share
      const expected = e.name.startsWith('share-file/{id}/{token}') ? [404, 7] : [403, 21];
      expect([a.status, a.code], e.name).toEqual(expected);
      expectNothingRevealed(a, e.name);
    }
    // and the other share's token with its files sent to this share
    const a = await ENDPOINTS.find((x) => x.name === 'file_info')!.ask(priv, tokens.other, {
      fileId: ids.o,
    });
    expect(a.code).toBe(21);
  });

  it('refuses ids outside the shared subtree: the owner’s other files, a look-alike sibling, another user’s, the root', async () => {
    const outside = [
      ids.secret,
      ids.leak,
      ids.o,
      ids.other,
      ids.bob,
      ids.bobFolder,
      '0',
      'no-such-id',
    ];
    for (const e of ENDPOINTS.filter((x) => x.targeted))
      for (const fileId of outside) {
        const a = await e.ask(priv, tokens.priv, { fileId });
        expect([a.status, a.code, a.message], `${e.name} ${fileId}`).toEqual([
          404,
          7,
          'The file does not exist in this share',
        ]);
        expectNothingRevealed(a, e.name);
      }
    // another user's share cannot be reached with this share's token either
    const a = await ENDPOINTS.find((x) => x.name === 'file_info')!.ask(bobShare, tokens.priv, {
      fileId: ids.in,
    });
    expect(a.code).toBe(7);
  });

  it('refuses paths that climb out with ".." (and other unsafe segments), and paths that lead nowhere', async () => {
    const climbing = [
      '..',
      '../secret.txt',
      '/sub/../../secret.txt',
      'sub/../in.txt',
      './in.txt',
      '..\\secret.txt',
      '/sub/..',
    ];
    for (const e of ENDPOINTS.filter((x) =>
      [
        'access-share/open',
        'file_info',
        'preview/text',
        'download/{name}',
        'view/thumbnail',
        'rename',
      ].includes(x.name),
    ))
      for (const path of climbing) {
        const a = await e.ask(priv, tokens.priv, { path });
        expect([a.status, a.code], `${e.name} ${path}`).toEqual([422, 10]);
        expectNothingRevealed(a, e.name);
      }
    for (const path of ['/secret.txt', '/shared2/leak.txt', '/sub/nothing.txt']) {
      const a = await ENDPOINTS.find((x) => x.name === 'file_info')!.ask(priv, tokens.priv, {
        path,
      });
      expect([a.status, a.code], path).toEqual([404, 7]);
    }
    // a path that stays inside is fine
    const ok = await ENDPOINTS.find((x) => x.name === 'file_info')!.ask(priv, tokens.priv, {
      path: '/sub/deep.txt',
    });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.text).data).toMatchObject({ name: 'deep.txt', path: '/sub/' });
  });

  it('refuses uploads whose folder, relative path or name climbs out, and writes nothing outside', async () => {
    const before = fs.readdirSync(path.join(t.dataDir, 'files', ADMIN.username)).sort();
    for (const e of ENDPOINTS.filter((x) =>
      [
        'checkExist',
        'upload (test)',
        'upload (chunk)',
        'merge',
        'upload-folder',
        'new_folder',
      ].includes(x.name),
    ))
      for (const dir of ['../', '/sub/../..', '..']) {
        const a = await e.ask(priv, tokens.priv, { path: dir });
        expect([a.status, a.code], `${e.name} ${dir}`).toEqual([422, 10]);
      }
    const headers = { ...headersOf(priv, tokens.priv) };
    for (const relativePath of ['../x.txt', 'a/../../x.txt', '..']) {
      const fields = chunkFields(relativePath);
      const test = await inject('GET', '/public/upload', {
        query: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])),
        headers,
      });
      expect([test.status, test.code], relativePath).toEqual([422, 10]);
      const { payload, contentType } = multipartBody(fields, Buffer.from('new bytes'), 'x.txt');
      const sent = await inject('POST', '/public/upload', {
        payload,
        headers: { ...headers, 'content-type': contentType },
      });
      expect([sent.status, sent.code], relativePath).toEqual([422, 10]);
    }
    const folder = await inject('POST', '/public/upload-folder', {
      query: { filename: 'x', folderPath: '../..' },
      headers,
    });
    expect(folder.code).toBe(10);
    const dotName = await inject('POST', '/public/upload-folder', {
      query: { filename: '..' },
      headers,
    });
    expect(dotName.code).toBe(10);
    expect(fs.readdirSync(path.join(t.dataDir, 'files', ADMIN.username)).sort()).toEqual(before);
  });

  it('never completes a visitor upload from the owner’s other files (no content oracle)', async () => {
    const content = 'the secret';
    const query = {
      chunkNumber: '1',
      chunkSize: String(1024 * 1024),
      currentChunkSize: String(content.length),
      totalSize: String(content.length),
      totalChunks: '1',
      identifier: sha(content),
      filename: 'copy.txt',
      relativePath: 'copy.txt',
      currentDirectory: '/',
    };
    const a = await inject('GET', '/public/upload', {
      query,
      headers: headersOf(priv, tokens.priv),
    });
    expect(a.code).toBe(0);
    expect(JSON.parse(a.text).data).toMatchObject({ pass: false, resume: [] });
    expect(fs.existsSync(path.join(t.dataDir, 'files', ADMIN.username, 'shared', 'copy.txt'))).toBe(
      false,
    );
  });

  it('throttles code guessing per visitor', async () => {
    const share = await makeShare(t, admin.token, { fileId: ids.sub, isPrivacy: true });
    for (let i = 0; i < 5; i++) {
      const a = await inject('POST', '/public/valid-share-code', {
        body: { shareId: share.shareId, shareCode: `bad${i}xx` },
      });
      expect(a.code).toBe(6);
    }
    const locked = await inject('POST', '/public/valid-share-code', {
      body: { shareId: share.shareId, shareCode: share.extractionCode },
    });
    expect([locked.status, locked.code]).toEqual([429, 22]);
  });
});
