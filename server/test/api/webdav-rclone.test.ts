import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, useAdminApp } from '../harness.ts';

// rclone, a real WebDAV client, copies, syncs and checks a tree with Chinese and emoji names;
// the web API then lists and finds what it wrote.

const run = promisify(execFile);

const { t, admin } = useAdminApp({ once: true });
let work: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-rclone-'));
  const { stdout: obscured } = await run('rclone', ['obscure', ADMIN.password]);
  // the remote comes from the environment; an empty file keeps rclone from asking for one
  fs.writeFileSync(path.join(work, 'rclone.conf'), '');
  env = {
    ...process.env,
    RCLONE_CONFIG: path.join(work, 'rclone.conf'),
    RCLONE_CONFIG_NIMBUS_TYPE: 'webdav',
    RCLONE_CONFIG_NIMBUS_URL: `http://127.0.0.1:${port}/webdav/`,
    RCLONE_CONFIG_NIMBUS_VENDOR: 'other',
    RCLONE_CONFIG_NIMBUS_USER: ADMIN.username,
    RCLONE_CONFIG_NIMBUS_PASS: obscured.trim(),
  };
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

const rclone = async (...args: string[]) => {
  const { stdout, stderr } = await run('rclone', args, { env, timeout: 120_000 });
  return `${stdout}${stderr}`;
};

/** A tree of folders and files with the names people give them. */
function makeTree(root: string): string[] {
  const files: Record<string, string> = {
    '文档/季度报告 2026.txt': 'quarterly numbers 季度',
    '文档/会议 #3 记录.md': '# 会议记录\nmeeting notes',
    '照片 📷/旅行 ✈️/海边 🌊.txt': 'sea and sand',
    '照片 📷/100% 完成+1.txt': 'done',
    'plain/readme.txt': 'plain ascii',
    'emoji 😀🎉.txt': 'party',
  };
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return Object.keys(files);
}

describe('rclone over WebDAV', () => {
  it('copies, syncs and checks a tree with CJK and emoji names, then the web API sees it', async () => {
    const local = path.join(work, 'tree');
    const names = makeTree(local);
    await rclone('copy', local, 'nimbus:同步');
    expect(await rclone('check', local, 'nimbus:同步')).toMatch(/0 differences found/);
    const listed = (await rclone('lsf', '-R', '--files-only', 'nimbus:同步'))
      .split('\n')
      .filter(Boolean)
      .sort();
    expect(listed).toEqual([...names].sort());

    // a change, a new file and a removal, then sync: the remote follows
    fs.writeFileSync(path.join(local, '文档/季度报告 2026.txt'), 'revised 修订');
    fs.writeFileSync(path.join(local, '照片 📷/新照片 🆕.txt'), 'new');
    fs.rmSync(path.join(local, 'plain/readme.txt'));
    await rclone('sync', local, 'nimbus:同步');
    expect(await rclone('check', local, 'nimbus:同步')).toMatch(/0 differences found/);
    expect(await rclone('cat', 'nimbus:同步/文档/季度报告 2026.txt')).toBe('revised 修订');

    // the web API lists the same folders and finds the files by name
    const folder = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/同步/照片 📷' },
    });
    expect(folder.body.data!.map((f) => f.name).sort()).toEqual(
      ['100% 完成+1.txt', '新照片 🆕.txt', '旅行 ✈️'].sort(),
    );
    const found = await call<Array<{ name: string; path: string }>>(t.app, 'GET', '/search-file', {
      token: admin.token,
      query: { keyword: '海边', searchOverall: true },
    });
    expect(found.body.data!.map((f) => `${f.path}${f.name}`)).toContain(
      '/同步/照片 📷/旅行 ✈️/海边 🌊.txt',
    );
    const report = await call<Array<{ name: string }>>(t.app, 'GET', '/search-file', {
      token: admin.token,
      query: { keyword: '季度报告', searchOverall: true },
    });
    expect(report.body.data!.map((f) => f.name)).toContain('季度报告 2026.txt');
    const gone = await call<Array<{ name: string }>>(t.app, 'GET', '/search-file', {
      token: admin.token,
      query: { keyword: 'readme', searchOverall: true },
    });
    expect(gone.body.data!.map((f) => f.name)).not.toContain('readme.txt');
  });
});
