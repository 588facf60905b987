import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LdapConfig } from '@nimbus/contract';
import * as password from '../../src/lib/password.ts';
import { SIGN_IN_FLOOR_MS } from '../../src/modules/auth/auth.service.ts';
import { call, makeUser, useAdminApp } from '../harness.ts';
import { LDAP_ADMIN_DN, LDAP_BASE, startLdap, type LdapServer } from '../ldap-server.ts';

// A refused sign-in must not tell which path its name took: every path verifies one scrypt
// hash (counted on the real function, not timed), and with a directory, no answer comes
// before the floor.
// Each test signs in a dozen times, some through a directory: they get minutes on a busy machine.

let ldap: LdapServer;

beforeAll(async () => {
  ldap = await startLdap();
});
afterAll(async () => {
  await ldap.stop();
});
const { t, admin } = useAdminApp();
beforeEach(async () => {
  await makeUser(t.app, admin.token, { username: 'local', password: 'local-secret' });
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function useLdap(over: Partial<LdapConfig> = {}) {
  const res = await call(t.app, 'PUT', '/ldap/config', {
    token: admin.token,
    body: {
      enable: true,
      ldapServer: ldap.url,
      baseDN: LDAP_BASE,
      userDN: LDAP_ADMIN_DN,
      password: ldap.adminPassword,
      loginName: 'uid',
      defaultRoleList: [],
      ...over,
    },
  });
  expect(res.body.code, res.body.message).toBe(0);
}

/** One refused sign-in from its own address: its status, the scrypt hashes verified, its time. */
async function refused(username: string, secret: string, n = 0) {
  const verify = vi.spyOn(password, 'verifyPassword');
  const started = performance.now();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: `127.0.0.${10 + n}`,
    payload: { username, password: secret },
  });
  const ms = performance.now() - started;
  const hashes = verify.mock.calls.length;
  verify.mockRestore();
  return { status: res.statusCode, hashes, ms };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

describe('sign-in timing', () => {
  it('verifies one scrypt hash on every refused path, and with LDAP on waits out the floor', async () => {
    // LDAP off: a local wrong password and an unknown name
    const paths: Array<[string, () => Promise<{ status: number; hashes: number; ms: number }>]> = [
      ['local, LDAP off', () => refused('local', 'wrong-password')],
      ['unknown, LDAP off', () => refused('nobody-here', 'wrong-password')],
    ];
    for (const [name, run] of paths) {
      const result = await run();
      expect(result.status, name).toBe(401);
      expect(result.hashes, name).toBe(1);
    }

    await useLdap();
    // alice exists in the directory; her account here is made by her first sign-in
    const first = await call(t.app, 'POST', '/login', {
      body: { username: 'alice', password: ldap.people.alice! },
    });
    expect(first.body.code, first.body.message).toBe(0);
    const withLdap: Array<[string, string, string, number]> = [
      ['local account, wrong password', 'local', 'wrong-password', 401],
      ['name in no directory', 'nobody-here', 'wrong-password', 401],
      ['directory person, no account yet, wrong password', 'bob', 'wrong-password', 401],
      ['LDAP account, wrong password', 'alice', 'wrong-password', 401],
    ];
    for (const [name, username, secret, status] of withLdap) {
      const result = await refused(username, secret);
      expect(result.status, name).toBe(status);
      expect(result.hashes, name).toBe(1);
      expect(result.ms, name).toBeGreaterThanOrEqual(SIGN_IN_FLOOR_MS - 5);
    }

    // a directory that cannot be reached: still one hash and the floor
    await useLdap({ ldapServer: 'ldap://127.0.0.1:1' });
    const down = await refused('nobody-here', 'wrong-password');
    expect(down.status).toBe(503);
    expect(down.hashes).toBe(1);
    expect(down.ms).toBeGreaterThanOrEqual(SIGN_IN_FLOOR_MS - 5);
  }, 180_000);

  it('answers a local wrong password and a name the directory does not know in like time', async () => {
    await useLdap();
    const local: number[] = [];
    const unknown: number[] = [];
    // alternated, from separate addresses, so neither meets the guess limit
    for (let i = 0; i < 4; i++) {
      local.push((await refused('local', `wrong-${i}`, i)).ms);
      unknown.push((await refused(`stranger${i}`, `wrong-${i}`, i)).ms);
    }
    const ratio = median(local) / median(unknown);
    // generous: only a path skipping the work (the 30x of before) fails it on a busy machine
    expect(ratio).toBeGreaterThan(1 / 3);
    expect(ratio).toBeLessThan(3);
  }, 180_000);
});
