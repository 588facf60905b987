import { describe, expect, it } from 'vitest';
import type { AccessTokenView } from '@nimbus/contract';
import { call, makeUser, useAdminApp } from '../harness.ts';

const { t, admin } = useAdminApp();

const generate = (token: string, tokenName: string) =>
  call<string>(t.app, 'PUT', '/user/setting/generateAccessToken', {
    token,
    query: { tokenName },
  });
const list = (token: string) =>
  call<AccessTokenView[]>(t.app, 'GET', '/user/setting/accessTokenList', { token });

describe('access tokens', () => {
  it('are shown once, work for the API like a session, and are refused at once when deleted', async () => {
    const made = await generate(admin.token, 'rclone on the laptop');
    expect(made.body.code, made.body.message).toBe(0);
    const accessToken = made.body.data!;
    expect(accessToken).toMatch(/^nat_[A-Za-z0-9_-]{40,}$/);

    // the listing never shows the token itself; unused until first used
    const before = await list(admin.token);
    expect(before.body.data).toHaveLength(1);
    expect(before.body.data![0]).toMatchObject({
      name: 'rclone on the laptop',
      lastActiveTime: '',
    });
    expect(JSON.stringify(before.body)).not.toContain(accessToken);

    // accepted wherever a session token is
    const listing = await call(t.app, 'GET', '/list', { token: accessToken });
    expect(listing.body.code, listing.body.message).toBe(0);
    const after = await list(admin.token);
    expect(after.body.data![0]!.lastActiveTime).not.toBe('');

    // signing out with it ends nothing
    await call(t.app, 'GET', '/logout', { token: accessToken });
    expect((await call(t.app, 'GET', '/list', { token: accessToken })).body.code).toBe(0);

    const removed = await call(t.app, 'DELETE', '/user/setting/deleteAccessToken', {
      token: admin.token,
      query: { id: after.body.data![0]!.id },
    });
    expect(removed.body.code, removed.body.message).toBe(0);
    const refused = await call(t.app, 'GET', '/list', { token: accessToken });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe(5);
  });

  it('belong to their owner: another user neither lists nor deletes them', async () => {
    const other = await makeUser(t.app, admin.token, { username: 'bob' });
    await generate(admin.token, 'mine');
    const mine = (await list(admin.token)).body.data!;
    expect((await list(other.token)).body.data).toEqual([]);
    const attempt = await call(t.app, 'DELETE', '/user/setting/deleteAccessToken', {
      token: other.token,
      query: { id: mine[0]!.id },
    });
    expect(attempt.status).toBe(404);
    expect((await list(admin.token)).body.data).toHaveLength(1);
  });

  it('need a name of at most 64 characters, and one person holds at most 50', async () => {
    const blank = await generate(admin.token, '  ');
    expect(blank.status).toBe(422);
    expect(blank.body.message).toMatch(/tokenName/);
    expect((await generate(admin.token, 'x'.repeat(65))).status).toBe(422);
    for (let i = 0; i < 50; i++) expect((await generate(admin.token, `t${i}`)).body.code).toBe(0);
    const over = await generate(admin.token, 'one more');
    expect(over.status).toBe(409);
  });

  it('look like no session token: a guessed or unknown one is simply not signed in', async () => {
    const res = await call(t.app, 'GET', '/list', { token: 'nat_not-a-real-token' });
    expect(res.status).toBe(401);
  });
});
