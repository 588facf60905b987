import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../harness.ts';

// Every call of the product specification's §7 ("The calls it makes") is served, or is listed in
// docs/API.md under "Not served" with its reason. Paths are as the original client writes them,
// under /api; `{x}` is a path parameter.

const CALLS = `
POST /login
POST /public/verify-totp
POST /public/init-verify-totp
GET /logout
GET /user/info
GET /user/userInfo
GET /user/userList
PUT /user/update
POST /user/add
POST /valid-old-pass
PUT /user/update-pass
PUT /user/reset-pass
DELETE /user/delete
GET /public/has_user
POST /public/initialization
GET /events
GET /ldap/config
PUT /ldap/config
PUT /ldap/test-config
POST /merge
POST /public/merge
POST /checkExist
POST /public/checkExist
POST /upload-folder
POST /public/upload-folder
POST /new_folder
GET /list
POST /favorite
POST /unFavorite
POST /setTag
PUT /setPublic
DELETE /delete
POST /restore
DELETE /sweep
DELETE /clear-trash
GET /rename
GET /rename/path
GET /search-file
GET /search-file-open
GET /query-file-tree
GET /upper-level-list
GET /listfiles
GET /check-move-copy
GET /move
GET /copy
GET /duplicate
GET /unzip
DELETE /delFile
POST /addfile
GET /isAllowDownload
GET /isAllowPackageDownload
GET /file_info
GET /public/file_info
GET /upload
POST /upload
GET /public/upload
POST /public/upload
GET /search/recentlySearchHistory
DELETE /search/deleteSearchHistory
DELETE /search/deleteAllSearchHistory
GET /preview/path/text
GET /preview/text
GET /public/s/preview/text
GET /markdown/p
POST /markdown/edit
POST /markdown/sort
DELETE /markdown/deleteDraft
POST /markdown/edit1
POST /upload-markdown-link-image
POST /upload-markdown-image
POST /office/signature
POST /public/office/signature
GET /history/office/list
GET /public/office/config
GET /office/config
PUT /office/config
POST /share/generate
GET /share/generate/share-token
GET /share/has-sub-share
GET /share/folder-sub-share
DELETE /share/cancel
GET /share/list
PUT /share/mount-folder
GET /mount/file_info
GET /mount/folder/id
POST /public/valid-share-code
GET /public/access-share
GET /public/get/sharer
GET /get/share/by/fileId
GET /public/access-share/open
GET /history/list
GET /history/path/list
GET /history/preview/text
PUT /history/recovery
DELETE /history/delete
GET /tag/list
GET /tag/info
POST /tag/add
PUT /tag/update
DELETE /tag/delete
POST /tag/sort
DELETE /deleteTag
PUT /updateTag
GET /menu/tree
GET /menu/authorities
GET /menu/info
POST /menu/add
PUT /menu/update
DELETE /menu/delete
GET /public/website/record
GET /website/setting
PUT /website/setting/update
GET /website/heartwings
GET /cloud/task/progress
GET /cloud/transcode/status
GET /user/setting/personalization
POST /user/setting/personalization
GET /user/setting/sync
GET /user/setting/isSync
PUT /user/setting/update_netdisk_name
GET /user/setting/accessTokenList
PUT /user/setting/generateAccessToken
DELETE /user/setting/deleteAccessToken
PUT /user/setting/resetMenuAndRole
GET /public/mfa/setup
POST /mfa/enable
POST /mfa/disable
GET /cloud/setting/mfa-force-enable
PUT /cloud/setting/mfa-force-enable
PUT /cloud/setting/reset-mfa
GET /cloud/setting/preview/config
PUT /cloud/setting/preview/config
GET /cloud/setting/ocr/config
PUT /cloud/setting/ocr/config
GET /cloud/setting/transcode/config
PUT /cloud/setting/transcode/config
PUT /cloud/setting/transcode/cancel-task
GET /cloud/setting/sync
GET /cloud/setting/recalculateFolderSize
GET /file/{user}/{path}
GET /pre-file/{id}/{name}
GET /share-file/{id}/{token}/{name}
GET /public/s/preview/{name}
GET /public/s/download/{name}
GET /public/s/packageDownload
GET /packageDownload
GET /direct-file/{user}/{name}
GET /history/preview/file
GET /view/thumbnail/user/{name}
GET /view/thumbnail
`
  .trim()
  .split('\n')
  .map((line) => {
    const [method, route] = line.split(' ') as [string, string];
    return { method, route };
  });

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Whether a registered route answers a call's path: `{x}` and `:x` match any segment, `*` the rest. */
function serves(method: string, route: string): boolean {
  const asked = `/api${route}`.split('/');
  return t.app.routeTable.some((r) => {
    // the web app's own catch-all (`/*`) answers the page, not the call
    if (r.method !== method || !r.url.startsWith('/api/')) return false;
    const parts = r.url.split('/');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part === '*') return true;
      const want = asked[i];
      if (want === undefined) return false;
      if (part.startsWith(':') || want.startsWith('{')) continue;
      if (part !== want) return false;
    }
    return parts.length === asked.length;
  });
}

const notServedSection = () => {
  const doc = fs.readFileSync(path.join(import.meta.dirname, '../../../docs/API.md'), 'utf8');
  const at = doc.indexOf('Not served (404), and why:');
  return doc.slice(at, doc.indexOf('\n## ', at));
};

describe('the calls of the specification §7', () => {
  it('are each served, or listed in docs/API.md as not served with the reason', () => {
    const section = notServedSection();
    const missing = CALLS.filter(({ method, route }) => !serves(method, route)).map(
      ({ method, route }) => `${method} ${route}`,
    );
    const undocumented = missing.filter((call) => !section.includes(`\`${call}\``));
    expect(undocumented).toEqual([]);
  });
});
