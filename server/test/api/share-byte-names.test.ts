import { describe, expect, it } from 'vitest';
import { ADMIN, putFile, useAdminApp } from '../harness.ts';
import { makeShare, raw } from '../share-fixtures.ts';

// The name at the end of a share's byte address is for the browser's sake (the name a download
// is saved as): a long name in any script reaches the handler, and one past the contract's limit
// is refused with 422 naming the field, never cut by the router and answered as another address.

const { t, admin } = useAdminApp({ once: true });

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

/** Three hundred CJK characters: 2,700 characters once encoded in the address. */
const LONG_CJK = `${'文'.repeat(300)}.txt`;
/** One character past the contract's 4,096. */
const TOO_LONG = `${'x'.repeat(4093)}.txt`;

describe("a share's byte addresses", () => {
  it('serve the bytes whatever the length of the name the address ends in', async () => {
    const fileId = await putFile(t, owner(), '/', 'notes.txt', 'hello');
    const share = await makeShare(t, admin.token, { fileId });
    const name = encodeURIComponent(LONG_CJK);
    expect(name.length).toBeGreaterThan(1000);
    const q = `shareId=${share.shareId}&fileId=${fileId}`;
    for (const url of [
      `/public/s/preview/${name}?${q}`,
      `/public/s/download/${name}?${q}`,
      `/share-file/${fileId}/${name}?shareId=${share.shareId}`,
    ]) {
      const res = await raw(t, url);
      expect([res.status, res.body], url.slice(0, 40)).toEqual([200, 'hello']);
    }
  });

  it('refuse a name past its limit with 422 naming the field', async () => {
    const fileId = await putFile(t, owner(), '/', 'other.txt', 'hello');
    const share = await makeShare(t, admin.token, { fileId });
    const q = `shareId=${share.shareId}&fileId=${fileId}`;
    for (const url of [
      `/public/s/preview/${TOO_LONG}?${q}`,
      `/public/s/download/${TOO_LONG}?${q}`,
      `/share-file/${fileId}/${TOO_LONG}?shareId=${share.shareId}`,
      `/share-file/${fileId}/token/${TOO_LONG}`,
    ]) {
      const res = await raw(t, url);
      expect(res.status, url.slice(0, 40)).toBe(422);
      expect(res.json?.code, url.slice(0, 40)).toBe(10);
      expect(res.json?.message, url.slice(0, 40)).toMatch(/\bname\b/);
    }
  });
});
