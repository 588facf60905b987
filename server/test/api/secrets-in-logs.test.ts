import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { LoginResult, MfaSetup } from '@nimbus/contract';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { openDatabase, type DbHandle } from '../../src/db/index.ts';
import { base32Decode, codeAt, stepAt } from '../../src/lib/totp.ts';
import {
  ADMIN,
  call,
  databaseAt,
  makeTestApp,
  makeUser,
  putFile,
  setupAdmin,
  type TestApp,
} from '../harness.ts';

// Neither the audit log nor the request log ever holds a password, a second-factor code, a
// recovery code, a share code or a token, whichever route carried it and in whichever field.

let t: TestApp;
let logged: string;
let app: FastifyInstance;
let database: DbHandle;

beforeEach(async () => {
  t = await makeTestApp();
  await setupAdmin(t.app);
  await t.close();
  logged = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString('utf8');
      done();
    },
  });
  database = openDatabase(t.config);
  app = await buildApp({ config: t.config, database, logger: { level: 'trace', stream } });
});
afterEach(async () => {
  await app.close();
  await database.close();
});

const codeOf = (secret: string, step: number) => codeAt(base32Decode(secret), step);

describe('secrets sent to the sensitive routes', () => {
  it('are written neither to the audit log nor to the request log', async () => {
    const secrets: string[] = [];
    const keep = <T extends string | undefined | null>(value: T): T => {
      if (value) secrets.push(value);
      return value;
    };

    // sign-in, wrong and right
    keep('not-the-password-1');
    await call(app, 'POST', '/login', {
      body: { username: ADMIN.username, password: 'not-the-password-1' },
    });
    keep(ADMIN.password);
    const signedIn = await call<LoginResult>(app, 'POST', '/login', {
      body: { username: ADMIN.username, password: ADMIN.password },
    });
    const token = keep(signedIn.body.data!['nimbus-token']!);
    const admin = { userId: signedIn.body.data!.userId!, username: ADMIN.username };

    // two-factor: enrol, sign in with a code and with a recovery code, turn it off
    const setup = await call<MfaSetup>(app, 'GET', '/public/mfa/setup', { token });
    const secret = keep(setup.body.data!.secret);
    const step = stepAt(Date.now());
    const enabled = await call<{ recoveryCodes: string[] }>(app, 'POST', '/mfa/enable', {
      token,
      body: { secret, code: keep(codeOf(secret, step)) },
    });
    expect(enabled.body.code, enabled.body.message).toBe(0);
    const recovery = enabled.body.data!.recoveryCodes.map(keep);
    const challenge = await call<LoginResult>(app, 'POST', '/login', {
      body: { username: ADMIN.username, password: ADMIN.password },
    });
    const mfaToken = keep(challenge.body.data!.mfaToken!);
    // a wrong code, then the right one
    await call(app, 'POST', '/public/verify-totp', {
      body: { username: ADMIN.username, mfaToken, mfaCode: keep(codeOf(secret, step + 7)) },
    });
    const verified = await call<LoginResult>(app, 'POST', '/public/verify-totp', {
      body: { username: ADMIN.username, mfaToken, mfaCode: keep(codeOf(secret, step + 1)) },
    });
    expect(verified.body.code, verified.body.message).toBe(0);
    keep(verified.body.data!['nimbus-token']);
    const disabled = await call(app, 'POST', '/mfa/disable', {
      token,
      // turning it off takes the password and a code
      body: { password: ADMIN.password, code: recovery[0] },
    });
    expect(disabled.body.code, disabled.body.message).toBe(0);

    // passwords: checked, changed, reset by the administrator
    const bob = await makeUser(app, token, { username: 'bob', password: keep('bob-first-pass') });
    keep(bob.token);
    await call(app, 'POST', '/valid-old-pass', {
      token: bob.token,
      body: { id: bob.userId, password: keep('bob-wrong-guess') },
    });
    const changed = await call(app, 'PUT', '/user/update-pass', {
      token: bob.token,
      body: { id: bob.userId, oldPassword: 'bob-first-pass', password: keep('bob-second-pass') },
    });
    expect(changed.body.code, changed.body.message).toBe(0);
    const reset = await call(app, 'PUT', '/user/reset-pass', {
      token,
      body: { id: bob.userId, password: keep('bob-third-pass') },
    });
    expect(reset.body.code, reset.body.message).toBe(0);

    // an access token, made and then used in a query
    const made = await call<string>(app, 'PUT', '/user/setting/generateAccessToken', {
      token,
      query: { tokenName: 'scripts' },
    });
    const accessToken = keep(made.body.data!);
    await call(app, 'GET', '/list', { query: { 'nimbus-token': accessToken, token: accessToken } });

    // a share with a code: its code checked, wrong and right, then its token used
    const fileId = await putFile({ ...t, app }, admin, '/', 'a.txt', 'a');
    const share = await call<{ shareId: string; extractionCode: string }>(
      app,
      'POST',
      '/share/generate',
      { token, body: { fileId, isPrivacy: true } },
    );
    expect(share.body.code, share.body.message).toBe(0);
    const { shareId, extractionCode } = share.body.data!;
    keep(extractionCode);
    await call(app, 'POST', '/public/valid-share-code', {
      body: { shareId, shareCode: keep('zzzz') },
    });
    const opened = await call<string>(app, 'POST', '/public/valid-share-code', {
      body: { shareId, shareCode: extractionCode },
    });
    expect(opened.body.code, opened.body.message).toBe(0);
    const shareToken = keep(opened.body.data!);
    await call(app, 'GET', '/public/access-share', { query: { share: shareId, shareToken } });
    await call(app, 'GET', `/share-file/${shareId}/${shareToken}/a.txt`);

    const audit = JSON.stringify(await database.db.selectFrom('auditEntry').selectAll().execute());
    expect(audit).toContain('mfa.change');
    expect(audit).toContain('password.change');
    for (const value of secrets) {
      expect(audit, `the audit log holds ${value}`).not.toContain(value);
      expect(logged, `the request log holds ${value}`).not.toContain(value);
    }
  });
});

describe('an audit log written before codes were known as secrets', () => {
  it('loses the codes on upgrade and keeps the code of a role', async () => {
    const old = await databaseAt('018-job-key');
    const legacy = old.database.db.withTables<{
      auditEntry: {
        id: string;
        at: number;
        userId: string | null;
        username: string;
        action: string;
        target: string | null;
        ip: string;
        ok: number;
      };
    }>();
    const entry = (id: string, target: string) => ({
      id,
      at: Date.now(),
      userId: null,
      username: 'admin',
      action: 'mfa.change',
      target,
      ip: '127.0.0.1',
      ok: 1,
    });
    await legacy
      .insertInto('auditEntry')
      .values([
        entry('a1', '/mfa/enable code=976460'),
        entry('a2', '/mfa/disable code=JVR3X-DTRBI'),
        entry('a3', '/role/add name=Editors code=editors'),
      ])
      .execute();
    const upgraded = await buildApp({
      config: testConfig({ dataDir: old.dataDir, databaseUrl: old.url }),
      database: old.database,
      logger: false,
    });
    try {
      const rows = await old.database.db
        .selectFrom('auditEntry')
        .select(['id', 'target'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 'a1', target: '/mfa/enable' },
        { id: 'a2', target: '/mfa/disable' },
        { id: 'a3', target: '/role/add name=Editors code=editors' },
      ]);
    } finally {
      await upgraded.close();
      await old.database.close();
    }
  });
});
