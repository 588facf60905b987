import { describe, expect, it } from 'vitest';
import type { LoginResult, MfaSetup } from '@nimbus/contract';
import { base32Decode, codeAt, stepAt } from '../../src/lib/totp.ts';
import { ADMIN, call, makeUser, useAdminApp } from '../harness.ts';

const { t, admin } = useAdminApp();

/** The code an authenticator app shows at a time step. */
const codeOf = (secret: string, step: number) => codeAt(base32Decode(secret), step);
/** The code an authenticator app shows `offset` steps from now. */
const codeFor = (secret: string, offset = 0) => codeOf(secret, stepAt(Date.now()) + offset);

const signIn = (username: string, password: string) =>
  call<LoginResult>(t.app, 'POST', '/login', { body: { username, password } });

const verify = (username: string, mfaToken: string, mfaCode: string) =>
  call<LoginResult>(t.app, 'POST', '/public/verify-totp', {
    body: { username, mfaToken, mfaCode },
  });

/** Turn two-factor sign-in on for a signed-in account; its secret and recovery codes. */
async function enrol(
  token: string,
): Promise<{ secret: string; recoveryCodes: string[]; step: number }> {
  const setup = await call<MfaSetup>(t.app, 'GET', '/public/mfa/setup', { token });
  expect(setup.body.code, setup.body.message).toBe(0);
  const { secret, qrCodeImageUri, mfaEnable } = setup.body.data!;
  expect(mfaEnable).toBe(false);
  expect(qrCodeImageUri).toMatch(/^otpauth:\/\/totp\/Nimbus:.+\?secret=[A-Z2-7]+/);
  const step = stepAt(Date.now());
  const enabled = await call<{ recoveryCodes: string[] }>(t.app, 'POST', '/mfa/enable', {
    token,
    body: { secret, code: codeOf(secret, step) },
  });
  expect(enabled.body.code, enabled.body.message).toBe(0);
  return { secret, recoveryCodes: enabled.body.data!.recoveryCodes, step };
}

describe('two-factor sign-in', () => {
  it('enrols with a code, then signs in in two steps; a wrong or reused code is refused', async () => {
    const { secret, recoveryCodes, step } = await enrol(admin.token);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    const first = await signIn(ADMIN.username, ADMIN.password);
    expect(first.body.data).toMatchObject({ mfaRequired: true });
    expect(first.body.data!['nimbus-token']).toBeUndefined();
    expect(first.headers['set-cookie']).toBeUndefined();
    const mfaToken = first.body.data!.mfaToken!;

    const wrong = await verify(ADMIN.username, mfaToken, codeOf(secret, step + 5));
    expect(wrong.status).toBe(401);
    // the code the enrolment used is spent; the next one is good
    expect((await verify(ADMIN.username, mfaToken, codeOf(secret, step))).status).toBe(401);
    const right = await verify(ADMIN.username, mfaToken, codeOf(secret, step + 1));
    expect(right.body.code, right.body.message).toBe(0);
    const session = right.body.data!['nimbus-token']!;
    expect((await call(t.app, 'GET', '/list', { token: session })).body.code).toBe(0);

    // the challenge is gone, and the code cannot be used again through a new one
    expect((await verify(ADMIN.username, mfaToken, codeOf(secret, step + 1))).status).toBe(401);
    const again = await signIn(ADMIN.username, ADMIN.password);
    const reused = await verify(
      ADMIN.username,
      again.body.data!.mfaToken!,
      codeOf(secret, step + 1),
    );
    expect(reused.status).toBe(401);
    expect(reused.body.message).toMatch(/already used|expired/);
  });

  it('takes each recovery code once, in any case and with or without its dash', async () => {
    const { recoveryCodes } = await enrol(admin.token);
    const code = recoveryCodes[0]!;
    const first = await signIn(ADMIN.username, ADMIN.password);
    const used = await verify(ADMIN.username, first.body.data!.mfaToken!, code.toLowerCase());
    expect(used.body.code, used.body.message).toBe(0);
    const second = await signIn(ADMIN.username, ADMIN.password);
    const twice = await verify(ADMIN.username, second.body.data!.mfaToken!, code.replace('-', ''));
    expect(twice.status).toBe(401);
  });

  it('keeps the secret sealed in the database', async () => {
    const { secret } = await enrol(admin.token);
    const row = await t.app.services.db
      .selectFrom('user')
      .select(['mfaSecret', 'mfaRecovery'])
      .where('id', '=', admin.userId)
      .executeTakeFirstOrThrow();
    expect(row.mfaSecret).toMatch(/^v1\./);
    expect(row.mfaSecret).not.toContain(secret);
  });

  it('gives a sign-in step five tries, and the password must be given again after them', async () => {
    const { secret } = await enrol(admin.token);
    const first = await signIn(ADMIN.username, ADMIN.password);
    const mfaToken = first.body.data!.mfaToken!;
    for (let i = 0; i < 5; i++)
      expect((await verify(ADMIN.username, mfaToken, '000000')).status).toBe(401);
    const late = await verify(ADMIN.username, mfaToken, codeFor(secret, 1));
    expect(late.status).toBe(401);
    expect(late.body.message).toMatch(/sign in with your password again/);
  });

  it('turns off with a current code, and is reset by an administrator', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const { secret } = await enrol(bob.token);
    const wrong = await call(t.app, 'POST', '/mfa/disable', {
      token: bob.token,
      body: { password: bob.password, code: codeFor(secret, 9) },
    });
    expect(wrong.status).toBe(401);

    // an ordinary user may neither reset nor force it
    const refused = await call(t.app, 'PUT', '/cloud/setting/reset-mfa', {
      token: bob.token,
      query: { userId: admin.userId },
    });
    expect(refused.status).toBe(403);
    expect(
      (
        await call(t.app, 'PUT', '/cloud/setting/mfa-force-enable', {
          token: bob.token,
          query: { mfaForceEnable: true },
        })
      ).status,
    ).toBe(403);

    // the user list says who signs in with a second factor (the reset is offered for them)
    const enrolled = async () =>
      (
        await call<Array<{ username: string; mfaEnabled: boolean }>>(
          t.app,
          'GET',
          '/user/userList',
          { token: admin.token },
        )
      ).body.data!.find((u) => u.username === 'bob')!.mfaEnabled;
    expect(await enrolled()).toBe(true);
    const reset = await call(t.app, 'PUT', '/cloud/setting/reset-mfa', {
      token: admin.token,
      query: { userId: bob.userId },
    });
    expect(reset.body.code, reset.body.message).toBe(0);
    expect(await enrolled()).toBe(false);
    const plain = await signIn('bob', bob.password);
    expect(plain.body.data!['nimbus-token']).toBeTruthy();

    // without a user: everybody's, by the creator only
    await enrol(admin.token);
    await enrol(plain.body.data!['nimbus-token']!);
    const all = await call(t.app, 'PUT', '/cloud/setting/reset-mfa', { token: admin.token });
    expect(all.body.code, all.body.message).toBe(0);
    expect((await signIn('bob', bob.password)).body.data!['nimbus-token']).toBeTruthy();
    expect((await signIn(ADMIN.username, ADMIN.password)).body.data!['nimbus-token']).toBeTruthy();
  });

  it('makes every account enrol first when the administrator requires it', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const on = await call(t.app, 'PUT', '/cloud/setting/mfa-force-enable', {
      token: admin.token,
      query: { mfaForceEnable: true },
    });
    expect(on.body.code, on.body.message).toBe(0);

    const first = await signIn('bob', bob.password);
    expect(first.body.data).toMatchObject({ mfaForceEnable: true });
    expect(first.body.data!['nimbus-token']).toBeUndefined();
    const mfaToken = first.body.data!.mfaToken!;

    // the setup page is reachable only through that step, never by a name alone
    expect(
      (await call(t.app, 'GET', '/public/mfa/setup', { query: { username: 'bob' } })).status,
    ).toBe(401);
    const setup = await call<MfaSetup>(t.app, 'GET', '/public/mfa/setup', {
      query: { username: 'bob', mfaToken },
    });
    expect(setup.body.data).toMatchObject({ mfaEnable: false, mfaForceEnable: true });
    const secret = setup.body.data!.secret;

    const done = await call<LoginResult & { recoveryCodes: string[] }>(
      t.app,
      'POST',
      '/public/init-verify-totp',
      { body: { username: 'bob', mfaToken, mfaSecret: secret, mfaCode: codeFor(secret) } },
    );
    expect(done.body.code, done.body.message).toBe(0);
    expect(done.body.data!.recoveryCodes).toHaveLength(10);
    const session = done.body.data!['nimbus-token']!;
    expect((await call(t.app, 'GET', '/list', { token: session })).body.code).toBe(0);

    // from now on bob signs in with a code
    const next = await signIn('bob', bob.password);
    expect(next.body.data).toMatchObject({ mfaRequired: true });
  });

  it('names what is wrong with a malformed code', async () => {
    const res = await call(t.app, 'POST', '/mfa/enable', {
      token: admin.token,
      body: { secret: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', code: '12ab' },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/code: enter the six digits/);
  });
});
