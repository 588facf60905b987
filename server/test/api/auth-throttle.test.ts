import { describe, expect, it } from 'vitest';
import { ADMIN, call, login, makeUser, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare } from '../share-fixtures.ts';

// Guessing secrets (passwords, share codes) is limited however many requests arrive at once:
// an attempt is reserved before the secret is checked, so parallel requests cannot slip past.

const { t, admin, renew } = useAdminApp();

interface Answer {
  status: number;
  code: number;
}

/** One request from a given address, through Fastify's inject. */
async function from(
  address: string,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body: unknown,
  token?: string,
): Promise<Answer> {
  const res = await t.app.inject({
    method,
    url: `/api${url}`,
    remoteAddress: address,
    headers: token ? { 'nimbus-token': token } : {},
    payload: body as Record<string, unknown>,
  });
  return { status: res.statusCode, code: res.json<{ code: number }>().code };
}

const signIn = (address: string, username: string, password: string) =>
  from(address, 'POST', '/login', { username, password });

/** How many answers had each HTTP status. */
function tally(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

describe('sign-in throttling under parallel requests', () => {
  it('checks at most 5 passwords of one username among 200 parallel sign-ins from 50 addresses', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob', password: 'bob-secret' });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        signIn(`10.1.${i % 50}.7`, 'bob', i === 199 ? bob.password : `wrong-${i}-pass`),
      ),
    );
    const counts = tally(answers);
    // 401: a password was checked and was wrong; 200: it was checked and was right (a right
    // password is no guess: its attempt is given back, so one more wrong one may be checked)
    expect(counts[401] ?? 0).toBeLessThanOrEqual(5);
    expect((counts[401] ?? 0) + (counts[200] ?? 0)).toBeLessThanOrEqual(6);
    expect(counts[429]).toBeGreaterThanOrEqual(195);
    expect(Object.keys(counts).sort()).toEqual(
      Object.keys(counts)
        .filter((s) => ['200', '401', '429'].includes(s))
        .sort(),
    );
    // the right password from an address that has never signed in to bob is refused too
    const late = await signIn('10.2.0.1', 'bob', bob.password);
    expect(late).toEqual({ status: 429, code: 22 });
  });

  it('refuses the right password sent at the end of a burst of 40 wrong ones', async () => {
    await makeUser(t.app, admin.token, { username: 'carol', password: 'carol-secret' });
    const answers = await Promise.all([
      ...Array.from({ length: 40 }, (_, i) =>
        signIn(`10.3.${i % 8}.1`, 'carol', `wrong-${i}-pass`),
      ),
      signIn('10.3.9.9', 'carol', 'carol-secret'),
    ]);
    const counts = tally(answers);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(5);
    expect((counts[401] ?? 0) + (counts[200] ?? 0)).toBeLessThanOrEqual(6);
    expect(counts[500]).toBeUndefined();
  });

  it('counts parallel failures from one address against that address too', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => signIn('10.4.0.1', `nobody${i}`, 'wrong-pass')),
    );
    const counts = tally(answers);
    expect(counts[401]).toBeLessThanOrEqual(20);
    expect(counts[500]).toBeUndefined();
    expect((await signIn('10.4.0.1', ADMIN.username, ADMIN.password)).code).toBe(22);
  });
});

describe('an account cannot be locked out by others', () => {
  it('lets the owner in from an address they signed in from, while strangers stay locked out', async () => {
    await makeUser(t.app, admin.token, { username: 'dana', password: 'dana-secret' });
    expect((await signIn('192.168.7.10', 'dana', 'dana-secret')).code).toBe(0);

    // someone else fails five times: the username is locked for everyone else
    for (let i = 0; i < 5; i++)
      expect((await signIn('10.5.0.1', 'dana', `wrong-${i}-pass`)).status).toBe(401);
    expect(await signIn('10.5.0.1', 'dana', 'dana-secret')).toEqual({ status: 429, code: 22 });
    expect(await signIn('10.5.0.2', 'dana', 'dana-secret')).toEqual({ status: 429, code: 22 });

    // the owner, at an address they have signed in from and not failed from, still gets in
    expect((await signIn('192.168.7.10', 'dana', 'dana-secret')).code).toBe(0);

    // strangers' further guesses from many addresses are never checked
    const more = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(`10.6.${i}.1`, 'dana', `guess-${i}-pass`)),
    );
    expect(tally(more)).toEqual({ 429: 30 });
  });

  it('limits an address the owner signed in from once it fails, too', async () => {
    await makeUser(t.app, admin.token, { username: 'erin', password: 'erin-secret' });
    expect((await signIn('192.168.8.10', 'erin', 'erin-secret')).code).toBe(0);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signIn('192.168.8.10', 'erin', `wrong-${i}-pass`)),
    );
    expect(tally(answers)[401]).toBeLessThanOrEqual(5);
    expect((await signIn('192.168.8.10', 'erin', 'erin-secret')).code).toBe(22);
  });
});

describe('share code throttling under parallel requests', () => {
  it('checks at most 5 codes from one visitor among 60 parallel guesses', async () => {
    const folder = await makeFolder(t, admin.token, '/', 'shared');
    const share = await makeShare(t, admin.token, { fileId: folder, isPrivacy: true });
    const answers = await Promise.all([
      ...Array.from({ length: 60 }, (_, i) =>
        from('10.7.0.1', 'POST', '/public/valid-share-code', {
          shareId: share.shareId,
          shareCode: `g${String(i).padStart(3, '0')}`,
        }),
      ),
      from('10.7.0.1', 'POST', '/public/valid-share-code', {
        shareId: share.shareId,
        shareCode: share.extractionCode,
      }),
    ]);
    const counts = tally(answers);
    // 403: a wrong code was checked; 200: the right one was (and gave its attempt back)
    expect(counts[403] ?? 0).toBeLessThanOrEqual(5);
    expect((counts[403] ?? 0) + (counts[200] ?? 0)).toBeLessThanOrEqual(6);
    expect(counts[500]).toBeUndefined();
    const after = await from('10.7.0.1', 'POST', '/public/valid-share-code', {
      shareId: share.shareId,
      shareCode: share.extractionCode,
    });
    expect(after).toEqual({ status: 429, code: 22 });
    // another visitor is not locked out by this one
    const other = await from('10.7.0.2', 'POST', '/public/valid-share-code', {
      shareId: share.shareId,
      shareCode: share.extractionCode,
    });
    expect(other.code).toBe(0);
  });
});

describe('current-password checks are throttled', () => {
  it('checks at most 5 guesses of the current password from a signed-in session', async () => {
    const fay = await makeUser(t.app, admin.token, { username: 'fay', password: 'fay-secret' });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        from(
          '10.8.0.1',
          'POST',
          '/valid-old-pass',
          { id: fay.userId, password: `guess-${i}-pass` },
          fay.token,
        ),
      ),
    );
    // code -2 (HTTP 200): the guess was checked and was wrong
    const checked = answers.filter((a) => a.code === -2).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.code === 22).length).toBeGreaterThanOrEqual(25);
    const right = await from(
      '10.8.0.1',
      'POST',
      '/valid-old-pass',
      { id: fay.userId, password: 'fay-secret' },
      fay.token,
    );
    expect(right).toEqual({ status: 429, code: 22 });
  });

  it('counts wrong current passwords of a password change in the same limit', async () => {
    const gus = await makeUser(t.app, admin.token, { username: 'gus', password: 'gus-secret' });
    for (let i = 0; i < 5; i++) {
      const res = await call(t.app, 'PUT', '/user/update-pass', {
        token: gus.token,
        body: { id: gus.userId, oldPassword: `wrong-${i}-pass`, password: 'next-secret' },
      });
      expect(res.body.code).toBe(-2);
    }
    const blocked = await call(t.app, 'PUT', '/user/update-pass', {
      token: gus.token,
      body: { id: gus.userId, oldPassword: 'gus-secret', password: 'next-secret' },
    });
    expect([blocked.status, blocked.body.code]).toEqual([429, 22]);
    const check = await call(t.app, 'POST', '/valid-old-pass', {
      token: gus.token,
      body: { id: gus.userId, password: 'gus-secret' },
    });
    expect(check.body.code).toBe(22);
    // the password did not change
    await login(t.app, 'gus', 'gus-secret');
  });

  it('a right guess does not use up the limit', async () => {
    const hal = await makeUser(t.app, admin.token, { username: 'hal', password: 'hal-secret' });
    for (let i = 0; i < 8; i++) {
      const res = await call(t.app, 'POST', '/valid-old-pass', {
        token: hal.token,
        body: { id: hal.userId, password: 'hal-secret' },
      });
      expect(res.body.code).toBe(0);
    }
  });
});

describe('sign-in attempt rows', () => {
  it('refuses a huge username before anything is stored', async () => {
    const before = await t.app.services.db
      .selectFrom('loginAttempt')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'x'.repeat(2 * 1024 * 1024), password: 'wrong-pass' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe(10);
    const tooLong = await call(t.app, 'POST', '/login', {
      body: { username: 'y'.repeat(33), password: 'wrong-pass' },
    });
    expect(tooLong.status).toBe(422);
    const longPassword = await call(t.app, 'POST', '/login', {
      body: { username: 'admin', password: 'p'.repeat(129) },
    });
    expect(longPassword.status).toBe(422);
    const after = await t.app.services.db
      .selectFrom('loginAttempt')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('prunes attempt rows older than the longest window', async () => {
    const { db } = t.app.services;
    await signIn('10.9.0.1', 'someone', 'wrong-pass');
    const old = Date.now() - 3 * 3600_000;
    await db
      .insertInto('loginAttempt')
      .values(
        Array.from({ length: 50 }, (_, i) => ({ key: `user:stale${i}`, attempts: 1, lastAt: old })),
      )
      .execute();
    await t.app.services.attempts.prune();
    const keys = (await db.selectFrom('loginAttempt').select('key').execute()).map((r) => r.key);
    expect(keys.filter((k) => k.startsWith('user:stale'))).toEqual([]);
    expect(keys).toContain('user:someone');
  });
});

describe('addresses from a proxy header', () => {
  it('are bounded wherever they are kept', async () => {
    await renew({ trustProxy: true });
    const forwarded = `${'f'.repeat(5000)}`;
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'x-forwarded-for': forwarded },
      payload: { username: 'admin', password: 'wrong-pass' },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'x-forwarded-for': forwarded },
      payload: ADMIN,
    });
    expect(right.statusCode).toBe(200);
    const keys = await t.app.services.db.selectFrom('loginAttempt').select('key').execute();
    for (const { key } of keys) expect(key.length).toBeLessThanOrEqual(200);
  });
});
