import { describe, expect, it } from 'vitest';
import type { AccessSummary, MfaSetup } from '@nimbus/contract';
import { base32Decode, codeAt, stepAt } from '../../src/lib/totp.ts';
import { call, login, makeUser, useAdminApp } from '../harness.ts';

const { t, admin } = useAdminApp();

const works = async (token: string) => (await call(t.app, 'GET', '/list', { token })).status;

const makeToken = async (token: string, tokenName: string, scope?: string) => {
  const made = await call<string>(t.app, 'PUT', '/user/setting/generateAccessToken', {
    token,
    query: { tokenName, ...(scope ? { scope } : {}) },
  });
  expect(made.body.code, made.body.message).toBe(0);
  return made.body.data!;
};

const summary = async (token: string, id?: string) => {
  const res = await call<AccessSummary>(t.app, 'GET', '/user/access-summary', {
    token,
    query: id ? { id } : {},
  });
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data!;
};

/** A person signed in on two devices, with two access tokens. */
async function bobEverywhere() {
  const bob = await makeUser(t.app, admin.token, { username: 'bob', password: 'bob-secret' });
  const laptop = await login(t.app, 'bob', 'bob-secret');
  const tokens = [await makeToken(bob.token, 'rclone'), await makeToken(bob.token, 'script')];
  return { ...bob, laptop: laptop.token, tokens };
}

describe('recovery steps end access', () => {
  it('a password change ends every other session and every access token, not the session making it', async () => {
    const bob = await bobEverywhere();
    // the confirmation can say what will end
    expect(await summary(bob.token)).toEqual({ otherSessions: 1, accessTokens: 2 });

    const changed = await call(t.app, 'PUT', '/user/update-pass', {
      token: bob.token,
      body: { id: bob.userId, oldPassword: 'bob-secret', password: 'bob-new-secret' },
    });
    expect(changed.body.code, changed.body.message).toBe(0);

    expect(await works(bob.token)).toBe(200);
    expect(await works(bob.laptop)).toBe(401);
    for (const token of bob.tokens) expect(await works(token)).toBe(401);
    expect(await summary(bob.token)).toEqual({ otherSessions: 0, accessTokens: 0 });
  });

  it("an administrator's reset ends all of the user's sessions and access tokens", async () => {
    const bob = await bobEverywhere();
    expect(await summary(admin.token, bob.userId)).toEqual({ otherSessions: 2, accessTokens: 2 });
    const reset = await call(t.app, 'PUT', '/user/reset-pass', {
      token: admin.token,
      body: { id: bob.userId, password: 'given-by-admin' },
    });
    expect(reset.body.code, reset.body.message).toBe(0);
    for (const token of [bob.token, bob.laptop, ...bob.tokens])
      expect(await works(token)).toBe(401);
    expect(await works(admin.token)).toBe(200);
  });

  it('turning two-factor sign-in on ends the other sessions and the access tokens', async () => {
    const bob = await bobEverywhere();
    const setup = await call<MfaSetup>(t.app, 'GET', '/public/mfa/setup', { token: bob.token });
    const secret = setup.body.data!.secret;
    const enabled = await call(t.app, 'POST', '/mfa/enable', {
      token: bob.token,
      body: { secret, code: codeAt(base32Decode(secret), stepAt(Date.now())) },
    });
    expect(enabled.body.code, enabled.body.message).toBe(0);
    expect(await works(bob.token)).toBe(200);
    expect(await works(bob.laptop)).toBe(401);
    for (const token of bob.tokens) expect(await works(token)).toBe(401);
  });

  it('nobody learns what another may not manage', async () => {
    const bob = await bobEverywhere();
    const carol = await makeUser(t.app, admin.token, { username: 'carol' });
    const res = await call(t.app, 'GET', '/user/access-summary', {
      token: carol.token,
      query: { id: bob.userId },
    });
    expect(res.status).toBe(403);
  });
});

describe('account security needs a session', () => {
  it('an access token, even one that reads and writes, cannot change the password, two-factor sign-in or the tokens', async () => {
    const bob = await bobEverywhere();
    const token = bob.tokens[0]!;
    const refused = [
      await call(t.app, 'PUT', '/user/update-pass', {
        token,
        body: { id: bob.userId, oldPassword: 'bob-secret', password: 'stolen-secret' },
      }),
      await call(t.app, 'POST', '/valid-old-pass', {
        token,
        body: { id: bob.userId, password: 'bob-secret' },
      }),
      await call(t.app, 'PUT', '/user/setting/generateAccessToken', {
        token,
        query: { tokenName: 'another' },
      }),
      await call(t.app, 'DELETE', '/user/setting/deleteAccessToken', {
        token,
        query: { id: 'x' },
      }),
      await call(t.app, 'GET', '/public/mfa/setup', { token }),
      await call(t.app, 'POST', '/mfa/enable', {
        token,
        body: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DP', code: '123456' },
      }),
      await call(t.app, 'POST', '/mfa/disable', {
        token,
        body: { password: 'bob-secret', code: '123456' },
      }),
    ];
    for (const res of refused) {
      expect(res.status, res.body.message).toBe(403);
      expect(res.body.message).toMatch(/access token/);
    }
    // the password did not change, the token still works for ordinary work
    await login(t.app, 'bob', 'bob-secret');
    expect(await works(token)).toBe(200);

    // an administrator's token resets nobody's password either
    const adminToken = await makeToken(admin.token, 'admin script');
    const reset = await call(t.app, 'PUT', '/user/reset-pass', {
      token: adminToken,
      body: { id: bob.userId, password: 'taken-over' },
    });
    expect(reset.status).toBe(403);
  });

  it('turning two-factor sign-in off needs the password as well as a code', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob', password: 'bob-secret' });
    const setup = await call<MfaSetup>(t.app, 'GET', '/public/mfa/setup', { token: bob.token });
    const secret = base32Decode(setup.body.data!.secret);
    const step = stepAt(Date.now());
    await call(t.app, 'POST', '/mfa/enable', {
      token: bob.token,
      body: { secret: setup.body.data!.secret, code: codeAt(secret, step) },
    });
    const noPassword = await call(t.app, 'POST', '/mfa/disable', {
      token: bob.token,
      body: { code: codeAt(secret, step + 1) },
    });
    expect(noPassword.status).toBe(422);
    expect(noPassword.body.message).toMatch(/password/);
    const wrongPassword = await call(t.app, 'POST', '/mfa/disable', {
      token: bob.token,
      body: { password: 'not-bobs', code: codeAt(secret, step + 1) },
    });
    expect(wrongPassword.body.code).not.toBe(0);
    expect(wrongPassword.body.message).toMatch(/password is wrong/);
    const info = async () =>
      (await call<{ mfaEnabled: boolean }>(t.app, 'GET', '/user/info', { token: bob.token })).body
        .data!.mfaEnabled;
    expect(await info()).toBe(true);
    const off = await call(t.app, 'POST', '/mfa/disable', {
      token: bob.token,
      body: { password: 'bob-secret', code: codeAt(secret, step + 1) },
    });
    expect(off.body.code, off.body.message).toBe(0);
    expect(await info()).toBe(false);
  });
});
