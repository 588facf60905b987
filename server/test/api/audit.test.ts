import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { AuditEntry } from '@nimbus/contract';
import * as secondFactorMigration from '../../src/db/migrations/021-audit-second-factor.ts';
import { ADMIN, call, makeUser, useAdminApp } from '../harness.ts';

// The audit log (issue 13): sign-ins, failed ones too, and administrative and security changes,
// with who, when and from where; for administrators only; no secret ever written in it.

const { t, admin } = useAdminApp();

const entries = async (query: Record<string, string | number> = {}) => {
  const res = await call<AuditEntry[]>(t.app, 'GET', '/audit/list', {
    token: admin.token,
    query: { pageSize: 100, ...query },
  });
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data!;
};

describe('the audit log', () => {
  it('records sign-ins that worked and that did not, newest first', async () => {
    const wrong = await call(t.app, 'POST', '/login', {
      body: { username: ADMIN.username, password: 'not-it', rememberMe: false },
    });
    expect(wrong.body.code).not.toBe(0);
    const signIns = await entries({ action: 'signIn' });
    expect(signIns[0]).toMatchObject({ username: ADMIN.username, ok: false, target: '/login' });
    expect(signIns.some((e) => e.ok && e.username === ADMIN.username)).toBe(true);
    expect(signIns[0]!.ip).toMatch(/127\.0\.0\.1|::1|::ffff:127/);
    expect(signIns[0]!.time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('records a password that passed with a second factor still to come as its own action', async () => {
    await call(t.app, 'PUT', '/cloud/setting/mfa-force-enable', {
      token: admin.token,
      query: { mfaForceEnable: true },
    });
    await makeUser(t.app, admin.token, { username: 'bob', password: 'bob-secret-1' });
    const first = await call(t.app, 'POST', '/login', {
      body: { username: 'bob', password: 'bob-secret-1', rememberMe: false },
    });
    expect(first.body.code, first.body.message).toBe(0);
    const pending = await entries({ action: 'signInSecondFactorNext' });
    // the words are the web's to translate: the entry carries an action, its target the route
    expect(pending[0]).toMatchObject({ username: 'bob', ok: true, target: '/login' });
    const all = await entries();
    expect(all.some((e) => /second factor/i.test(e.target))).toBe(false);
  });

  it('turns entries written with English words for a pending second factor into that action', async () => {
    await call(t.app, 'POST', '/login', {
      body: { username: ADMIN.username, password: ADMIN.password, rememberMe: false },
    });
    // an entry as the log wrote it before
    await t.database.db
      .updateTable('auditEntry')
      .set({ target: '/login (second factor next)' })
      .where('action', '=', 'signIn')
      .execute();
    await secondFactorMigration.up(t.database.db as unknown as Kysely<unknown>);
    const pending = await entries({ action: 'signInSecondFactorNext' });
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.every((e) => e.target === '/login')).toBe(true);
  });

  it('records who changed users and settings, without any password', async () => {
    const password = 'very-secret-password-42';
    const bob = await makeUser(t.app, admin.token, { username: 'bob', password });
    await call(t.app, 'PUT', '/user/setting/update_netdisk_name', {
      token: admin.token,
      query: { netdiskName: 'HomeDrive' },
    });
    await call(t.app, 'DELETE', '/user/delete', {
      token: admin.token,
      query: { ids: [bob.userId] },
    });
    const all = await entries();
    expect(all.find((e) => e.action === 'user.add')).toMatchObject({
      username: ADMIN.username,
      ok: true,
    });
    expect(all.find((e) => e.action === 'user.add')!.target).toContain('username=bob');
    expect(all.find((e) => e.action === 'settings.change')!.target).toContain(
      'netdiskName=HomeDrive',
    );
    expect(all.find((e) => e.action === 'user.delete')!.target).toContain(bob.userId);
    expect(JSON.stringify(all)).not.toContain(password);
    // plain reading is not recorded
    expect(all.some((e) => e.target.startsWith('/list'))).toBe(false);
  });

  it('is for administrators only', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const peek = await call(t.app, 'GET', '/audit/list', { token: bob.token });
    expect(peek.status).toBe(403);
    // a refused change is recorded as refused, under the one who tried
    await call(t.app, 'POST', '/user/add', {
      token: bob.token,
      body: { username: 'mallory', password: 'mallory-secret', quota: 1 },
    });
    const tried = (await entries({ action: 'user.add', username: 'bob' }))[0];
    expect(tried).toMatchObject({ ok: false, username: 'bob' });
  });
});
