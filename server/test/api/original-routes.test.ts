import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, makeUser, putFile, useAdminApp } from '../harness.ts';

// Calls the original client makes that Nimbus answers although it keeps nothing behind them
// (issue: the original API, "Routes the original client calls that answer 404").

let user: { token: string; userId: string; username: string };

const { t, admin } = useAdminApp({ once: true });
beforeAll(async () => {
  user = await makeUser(t.app, admin.token);
});

describe('calls of the original client', () => {
  it('answers the dynamic address asked on every page, off, for any signed-in user', async () => {
    for (const token of [admin.token, user.token]) {
      const res = await call(t.app, 'GET', '/website/setting/dynamic-address', { token });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ enabled: false, domain: '' });
    }
    expect((await call(t.app, 'GET', '/website/setting/dynamic-address')).status).toBe(401);
  });

  it('lists no groups, to those who may list users only', async () => {
    const res = await call(t.app, 'GET', '/group/list', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 0, data: [], count: 0 });
    expect((await call(t.app, 'GET', '/group/list', { token: user.token })).status).toBe(403);
  });

  it('draws a thumbnail whose address names the file, as the image viewer strip asks', async () => {
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#3366cc' },
    })
      .png()
      .toBuffer();
    const id = await putFile(t, user, '/', 'sea.png', png);
    const plain = await t.app.inject({
      url: `/api/view/thumbnail?id=${id}`,
      headers: { 'nimbus-token': user.token },
    });
    const named = await t.app.inject({
      url: `/api/view/thumbnail/sea.png?id=${id}`,
      headers: { 'nimbus-token': user.token },
    });
    expect(plain.statusCode).toBe(200);
    expect(named.statusCode).toBe(200);
    expect(named.headers['content-type']).toBe(plain.headers['content-type']);
    expect(named.rawPayload.equals(plain.rawPayload)).toBe(true);
    // the id decides: someone else's picture stays theirs, whatever the name says
    const other = await t.app.inject({
      url: `/api/view/thumbnail/sea.png?id=${id}`,
      headers: { 'nimbus-token': admin.token },
    });
    expect(other.statusCode).toBeGreaterThanOrEqual(400);
    const tooLong = await t.app.inject({
      url: `/api/view/thumbnail/${'a'.repeat(1100)}?id=${id}`,
      headers: { 'nimbus-token': user.token },
    });
    // a name longer than the router takes is no address at all
    expect([404, 414, 422]).toContain(tooLong.statusCode);
  });
});
