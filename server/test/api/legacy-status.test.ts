import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@nimbus/contract';
import { call, makeTestApp, setupAdmin, type TestApp } from '../harness.ts';

// NIMBUS_LEGACY_STATUS=1 (issue: the original client reads the envelope only on HTTP 2xx): every
// API error answers 200 with its envelope unchanged; without the setting the real statuses stay.

let legacy: TestApp;
let plain: TestApp;
let token: string;

beforeAll(async () => {
  legacy = await makeTestApp({ legacyStatus: true });
  plain = await makeTestApp();
  ({ token } = await setupAdmin(legacy.app));
  await setupAdmin(plain.app);
});

afterAll(async () => {
  await legacy?.close();
  await plain?.close();
});

describe('legacy statuses', () => {
  it('answers API errors with HTTP 200 and the envelope that names them', async () => {
    // signed out: code 5 reaches the client's "sign in again" prompt
    const signedOut = await call(legacy.app, 'GET', '/user/info');
    expect(signedOut.status).toBe(200);
    expect(signedOut.body.code).toBe(ErrorCode.NOT_LOGGED_IN);
    // a field refused: 422 otherwise
    const refused = await call(legacy.app, 'POST', '/new_folder', {
      token,
      query: { currentDirectory: '/', filename: 'a/b' },
    });
    expect(refused.status).toBe(200);
    expect(refused.body.code).not.toBe(0);
    expect(refused.body.message).toMatch(/filename|name/i);
    // an address nobody serves
    const missing = await call(legacy.app, 'GET', '/no/such/route', { token });
    expect(missing.status).toBe(200);
    expect(missing.body.code).toBe(ErrorCode.NOT_FOUND);
    // a success is unchanged
    const ok = await call(legacy.app, 'GET', '/user/info', { token });
    expect(ok.status).toBe(200);
    expect(ok.body.code).toBe(0);
  });

  it('keeps real statuses outside the API and without the setting', async () => {
    const dav = await legacy.app.inject({ method: 'PROPFIND', url: '/webdav/' });
    expect(dav.statusCode).toBe(401);
    expect((await call(plain.app, 'GET', '/user/info')).status).toBe(401);
    const refused = await call(plain.app, 'GET', '/no/such/route');
    expect(refused.status).toBe(404);
  });
});
