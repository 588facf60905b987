import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, redactUrl } from '../../src/app.ts';
import { openDatabase, type DbHandle } from '../../src/db/index.ts';
import { makeTestApp, setupAdmin, type TestApp } from '../harness.ts';

// Secrets that travel in URLs and headers (session tokens, share tokens, codes, passwords)
// never reach the log, whatever the spelling of their names.

let t: TestApp;
let logged: string;
let app: FastifyInstance;
let database: DbHandle;

beforeEach(async () => {
  // a drive set up by the harness, then served again by an app whose log we read
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

const secret = () => `S${randomBytes(12).toString('hex')}`;

describe('the log', () => {
  it('never holds a token, code or password sent in a query, a path or a header', async () => {
    const secrets: string[] = [];
    const query = (names: string[]) =>
      names
        .map((name) => {
          const value = secret();
          secrets.push(value);
          return `${name}=${value}`;
        })
        .join('&');
    const urls = [
      `/api/public/share/info?${query(['shareToken', 'share-token', 'SHARE-TOKEN'])}`,
      `/api/pre-file/x/a.txt?${query(['nimbus-token', 'Nimbus-Token', 'token', 'TOKEN'])}&o=1`,
      `/api/list?${query(['access-token', 'accessToken', 'access_token', 'ACCESSTOKEN'])}`,
      `/api/public/valid-share-code?${query(['code', 'shareCode', 'extractionCode', 'password'])}`,
      `/api/x?${query(['oldPassword', 'pwd', 'secret', 'api_key', 'authorization'])}`,
      `/api/x?a=1&${query(['share%2Dtoken', 'nimbus%2dtoken', 'share%54oken'])}`,
      `/api/x?${query(['shareToken[]', 'token'])}#frag`,
    ];
    const pathToken = secret();
    secrets.push(pathToken);
    urls.push(`/api/share-file/abc123/${pathToken}/name.txt`);
    // nested in another parameter (the PDF viewer's `file`), encoded once or twice, and the
    // token segment of a share's HLS path
    const nested = [secret(), secret(), secret()];
    secrets.push(...nested);
    const inner = (value: string) => `/api/pre-file/x/a.pdf?nimbus-token=${value}`;
    urls.push(
      `/pdfjs/web/viewer.html?file=${encodeURIComponent(inner(nested[0]!))}`,
      `/api/x?file=${encodeURIComponent(encodeURIComponent(inner(nested[1]!)))}`,
      `/api/public/video/hls/abc123/${nested[2]}/bob/index.m3u8`,
    );
    for (const url of urls) await app.inject({ method: 'GET', url });

    const headerSecrets = {
      'nimbus-token': secret(),
      'share-token': secret(),
      authorization: `Bearer ${secret()}`,
      cookie: `nimbus-token=${secret()}`,
    };
    secrets.push(...Object.values(headerSecrets).map((v) => v.split(/[ =]/).pop()!));
    await app.inject({ method: 'GET', url: '/api/user/info', headers: headerSecrets });
    // headers logged by any code are masked too
    app.log.info({ headers: headerSecrets }, 'headers');
    app.log.info({ res: { headers: { 'set-cookie': headerSecrets.cookie } } }, 'answer');
    const password = secret();
    secrets.push(password);
    await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password },
    });

    // the requests were logged, with their paths
    expect(logged).toContain('/api/public/share/info');
    expect(logged).toContain('/api/share-file/abc123/');
    expect(logged).toContain('o=1');
    for (const value of secrets) expect(logged, value).not.toContain(value);
  });

  it('masks what redactUrl is given and leaves other parameters alone', () => {
    expect(redactUrl('/api/pre-file/1/a.txt?nimbus-token=secret123&o=download')).toBe(
      '/api/pre-file/1/a.txt?nimbus-token=***&o=download',
    );
    expect(redactUrl('/api/x?shareToken=abc&Share-Token=def&q=1')).toBe(
      '/api/x?shareToken=***&Share-Token=***&q=1',
    );
    expect(redactUrl('/api/x?a=1&b')).toBe('/api/x?a=1&b');
    expect(redactUrl('/api/x')).toBe('/api/x');
  });
});
