import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_ROLE,
  USER_ROLE,
  type LdapConfig,
  type LoginResult,
  type UserInfo,
} from '@nimbus/contract';
import { call, makeUser, useAdminApp } from '../harness.ts';
import { LDAP_ADMIN_DN, LDAP_BASE, startLdap, type LdapServer } from '../ldap-server.ts';

let ldap: LdapServer;

beforeAll(async () => {
  ldap = await startLdap();
});
afterAll(async () => {
  await ldap.stop();
});
const { t, admin } = useAdminApp();

const config = (over: Partial<LdapConfig> = {}): LdapConfig => ({
  enable: true,
  ldapServer: ldap.url,
  baseDN: LDAP_BASE,
  userDN: LDAP_ADMIN_DN,
  password: ldap.adminPassword,
  loginName: 'uid',
  defaultRoleList: [],
  ...over,
});

const signIn = (username: string, password: string) =>
  call<LoginResult>(t.app, 'POST', '/login', { body: { username, password } });

async function useLdap(over: Partial<LdapConfig> = {}) {
  const res = await call(t.app, 'PUT', '/ldap/config', { token: admin.token, body: config(over) });
  expect(res.body.code, res.body.message).toBe(0);
}

describe('LDAP sign-in against OpenLDAP', () => {
  it('signs a directory person in with the right password and makes their account once', async () => {
    await useLdap();
    const wrong = await signIn('alice', 'not-her-password');
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('Wrong username or password');
    // an empty password is an anonymous bind to LDAP: refused before it is sent
    expect((await signIn('alice', '')).status).toBe(422);

    const right = await signIn('alice', ldap.people.alice!);
    expect(right.body.code, right.body.message).toBe(0);
    const token = right.body.data!['nimbus-token']!;
    const info = await call<UserInfo>(t.app, 'GET', '/user/info', { token });
    expect(info.body.data!.username).toBe('alice');
    // no default roles set: the ordinary user role
    expect(info.body.data!.roles).toEqual([USER_ROLE.code]);

    // a second sign-in uses the same account
    const again = await signIn('alice', ldap.people.alice!);
    expect(again.body.data!.userId).toBe(right.body.data!.userId);
    // the password is not kept: the stored hash is not one of it
    const row = await t.app.services.db
      .selectFrom('user')
      .select(['authSource', 'passwordHash'])
      .where('username', '=', 'alice')
      .executeTakeFirstOrThrow();
    expect(row.authSource).toBe('ldap');
    expect(row.passwordHash).not.toContain(ldap.people.alice!);
  });

  it('gives new accounts the default roles', async () => {
    await useLdap({ defaultRoleList: [ADMIN_ROLE.id] });
    const res = await signIn('bob', ldap.people.bob!);
    expect(res.body.code, res.body.message).toBe(0);
    const info = await call<UserInfo>(t.app, 'GET', '/user/info', {
      token: res.body.data!['nimbus-token']!,
    });
    expect(info.body.data!.roles).toContain(ADMIN_ROLE.code);
  });

  it('leaves local accounts to their own passwords, and signs nobody in while it is off', async () => {
    const local = await makeUser(t.app, admin.token, { username: 'alice', password: 'local-pass' });
    await useLdap();
    // the directory's alice cannot take over the local alice
    expect((await signIn('alice', ldap.people.alice!)).status).toBe(401);
    expect((await signIn('alice', local.password)).body.code).toBe(0);

    await useLdap({ enable: false });
    expect((await signIn('bob', ldap.people.bob!)).status).toBe(401);
  });

  it('tests a configuration and says what is wrong: the server, the bind DN, the base', async () => {
    const ok = await call(t.app, 'PUT', '/ldap/test-config', {
      token: admin.token,
      body: config(),
    });
    expect(ok.body.code, ok.body.message).toBe(0);

    const badBind = await call(t.app, 'PUT', '/ldap/test-config', {
      token: admin.token,
      body: config({ password: 'wrong' }),
    });
    expect(badBind.status).toBe(422);
    expect(badBind.body.message).toMatch(/userDN: the directory refused/);

    const badBase = await call(t.app, 'PUT', '/ldap/test-config', {
      token: admin.token,
      body: config({ baseDN: 'dc=elsewhere,dc=test' }),
    });
    expect(badBase.status).toBe(422);
    expect(badBase.body.message).toMatch(/baseDN/);

    // a port on loopback where nothing listens
    const closed = ldap.url.replace(/:(\d+)$/, (_, p: string) => `:${Number(p) === 1 ? 2 : 1}`);
    const badServer = await call(t.app, 'PUT', '/ldap/test-config', {
      token: admin.token,
      body: config({ ldapServer: closed }),
    });
    expect(badServer.status).toBe(503);
    expect(badServer.body.message).toMatch(/cannot be reached/);

    const notAnAddress = await call(t.app, 'PUT', '/ldap/test-config', {
      token: admin.token,
      body: config({ ldapServer: 'http://example' }),
    });
    expect(notAnAddress.status).toBe(422);
    expect(notAnAddress.body.message).toMatch(/ldapServer/);
  });

  it('never sends the stored password back; only the creator changes the configuration', async () => {
    await useLdap();
    const view = await call<LdapConfig>(t.app, 'GET', '/ldap/config', { token: admin.token });
    expect(view.body.data).toMatchObject({ enable: true, ldapServer: ldap.url, password: '' });
    expect(JSON.stringify(view.body)).not.toContain(ldap.adminPassword);
    // an empty password in a change keeps the stored one: sign-in still works
    await useLdap({ password: '' });
    expect((await signIn('alice', ldap.people.alice!)).body.code).toBe(0);

    const bob = await makeUser(t.app, admin.token, { username: 'carol' });
    expect((await call(t.app, 'GET', '/ldap/config', { token: bob.token })).status).toBe(403);
    const refused = await call(t.app, 'PUT', '/ldap/config', { token: bob.token, body: config() });
    expect(refused.status).toBe(403);
  });
});
