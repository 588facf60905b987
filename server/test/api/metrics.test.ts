import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { openDatabase, type DbHandle } from '../../src/db/index.ts';
import { SettingsService } from '../../src/modules/settings/settings.service.ts';
import { databaseReady } from '../../src/modules/health/readiness.ts';
import { call, login, ADMIN, makeTestApp, makeUser, setupAdmin } from '../harness.ts';
import { chunkPlan, sendChunk, uploadFile } from '../upload-client.ts';

// Readiness answers 503 naming what cannot serve; /metrics speaks Prometheus' text format to
// administrators and the scrape token only, with route patterns (never raw URLs) as labels.

const SCRAPE_TOKEN = `scrape-${Math.random().toString(36).slice(2)}-${Date.now()}`;

let app: FastifyInstance;
let database: DbHandle;
let dataDir: string;
let logged = '';
let adminToken: string;
let userToken: string;

beforeAll(async () => {
  const t = await makeTestApp({ metricsToken: SCRAPE_TOKEN });
  await setupAdmin(t.app);
  await t.close();
  dataDir = t.dataDir;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString('utf8');
      done();
    },
  });
  database = openDatabase(t.config);
  app = await buildApp({ config: t.config, database, logger: { level: 'trace', stream } });
  adminToken = (await login(app, ADMIN.username, ADMIN.password)).token;
  userToken = (await makeUser(app, adminToken)).token;
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const scrape = (headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: '/metrics', headers });
const bearer = { authorization: `Bearer ${SCRAPE_TOKEN}` };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The text format, strictly: every line a comment or `name{labels} value`. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (-?[0-9.e+-]+|\+Inf|NaN)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[3] ?? '';
    const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/gy;
    let consumed = 0;
    for (let l = re.exec(body); l; l = re.exec(body)) {
      labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
      consumed = re.lastIndex;
    }
    if (consumed !== body.length) throw new Error(`bad labels: ${line}`);
    samples.push({ name: m[1]!, labels, value: Number(m[4]) });
  }
  return samples;
}

async function samples(): Promise<Sample[]> {
  const res = await scrape(bearer);
  expect(res.statusCode).toBe(200);
  return parse(res.body);
}

const requestsOf = (all: Sample[], route: string, method = 'GET') =>
  all
    .filter(
      (s) =>
        s.name === 'nimbus_http_requests_total' &&
        s.labels.route === route &&
        s.labels.method === method,
    )
    .reduce((n, s) => n + s.value, 0);

describe('/api/public/ready', () => {
  it('answers 200 while the database and the storage can serve', async () => {
    const res = await call(app, 'GET', '/public/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 0, data: 'ready' });
  });

  it('answers 503 naming storage while the store cannot be reached, and 200 again after', async () => {
    const files = path.join(dataDir, 'files');
    const away = path.join(dataDir, 'files-away');
    fs.renameSync(files, away);
    try {
      const res = await call(app, 'GET', '/public/ready');
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('storage');
      expect(res.body.message).not.toContain('database');
      expect(res.body.data).toEqual({ notReady: ['storage'] });
      // liveness is another question: the process still answers
      const health = await app.inject({ method: 'GET', url: '/api/public/health' });
      expect(health.statusCode).toBe(200);
    } finally {
      fs.renameSync(away, files);
    }
    expect((await call(app, 'GET', '/public/ready')).status).toBe(200);
  });

  it('counts a database that cannot be reached as not ready (the check itself)', async () => {
    expect(await databaseReady(() => app.services.settings.databaseReachable())).toBe(true);
    if (database.dialect === 'sqlite') {
      const closed = openDatabase(app.config);
      await closed.close();
      expect(await databaseReady(() => new SettingsService(closed.db).databaseReachable())).toBe(
        false,
      );
      return;
    }
    // a PostgreSQL server that accepts the connection and never answers: the check gives up
    // after its short timeout
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const stuck = openDatabase({
      dataDir,
      databaseUrl: `postgres://nimbus@127.0.0.1:${port}/nimbus`,
    });
    try {
      const started = Date.now();
      expect(
        await databaseReady(() => new SettingsService(stuck.db).databaseReachable(), 300),
      ).toBe(false);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await stuck.close().catch(() => undefined);
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('GET /metrics', () => {
  it('is refused without credentials, with a wrong token, and for a plain user', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape({ authorization: 'Bearer not-the-token-at-all' })).statusCode).toBe(401);
    const user = await scrape({ 'nimbus-token': userToken });
    expect(user.statusCode).toBe(403);
    expect(user.json()).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
    expect((await scrape({ authorization: `Bearer ${userToken}` })).statusCode).toBe(403);
  });

  it('answers an administrator and the scrape token in the text format', async () => {
    const admin = await scrape({ 'nimbus-token': adminToken });
    expect(admin.statusCode).toBe(200);
    expect(admin.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const res = await scrape(bearer);
    expect(res.statusCode).toBe(200);
    const all = parse(res.body);
    const names = new Set(all.map((s) => s.name));
    for (const name of [
      'nimbus_http_requests_total',
      'nimbus_http_request_duration_seconds_bucket',
      'nimbus_http_request_duration_seconds_sum',
      'nimbus_http_request_duration_seconds_count',
      'nimbus_http_request_bytes_total',
      'nimbus_http_response_bytes_total',
      'nimbus_process_resident_memory_bytes',
      'nimbus_process_heap_used_bytes',
      'nimbus_event_loop_delay_seconds',
      'nimbus_event_streams_open',
      'nimbus_user_used_bytes',
    ])
      expect(names, name).toContain(name);
    if (database.dialect === 'postgres') expect(names).toContain('nimbus_db_pool_connections');
    // every sample's TYPE is declared before it
    const typed = new Set(
      res.body
        .split('\n')
        .filter((l) => l.startsWith('# TYPE '))
        .map((l) => l.split(' ')[2]),
    );
    for (const s of all)
      expect(typed, s.name).toContain(s.name.replace(/_(bucket|sum|count)$/, ''));
  });

  it('answers an administrator’s access token as the bearer, unless it is for WebDAV only', async () => {
    const makeToken = async (query: Record<string, string>) => {
      const res = await call<string>(app, 'PUT', '/user/setting/generateAccessToken', {
        token: adminToken,
        query: { tokenName: `metrics ${Math.random()}`, ...query },
      });
      expect(res.body.code, res.body.message).toBe(0);
      return res.body.data!;
    };
    const read = await makeToken({ scope: 'read' });
    expect((await scrape({ authorization: `Bearer ${read}` })).statusCode).toBe(200);
    const dav = await makeToken({ scope: 'webdav' });
    expect((await scrape({ authorization: `Bearer ${dav}` })).statusCode).toBe(403);
  });

  it('counts requests by route pattern and status class, and their bytes', async () => {
    const before = await samples();
    const bytesBefore = before.find((s) => s.name === 'nimbus_http_response_bytes_total')!.value;
    for (let i = 0; i < 3; i++) await call(app, 'GET', '/public/ready');
    const after = await samples();
    expect(requestsOf(after, '/api/public/ready') - requestsOf(before, '/api/public/ready')).toBe(
      3,
    );
    const ok = after.find(
      (s) =>
        s.name === 'nimbus_http_requests_total' &&
        s.labels.route === '/api/public/ready' &&
        s.labels.status_class === '2xx',
    );
    expect(ok?.value).toBeGreaterThanOrEqual(3);
    const count = after.find(
      (s) =>
        s.name === 'nimbus_http_request_duration_seconds_count' &&
        s.labels.route === '/api/public/ready',
    );
    expect(count?.value).toBe(requestsOf(after, '/api/public/ready'));
    expect(after.find((s) => s.name === 'nimbus_http_response_bytes_total')!.value).toBeGreaterThan(
      bytesBefore,
    );
  });

  it('labels routes by pattern: file ids and unknown paths add no label values', async () => {
    const routesOf = (all: Sample[]) =>
      new Set(
        all.filter((s) => s.name === 'nimbus_http_requests_total').map((s) => s.labels.route),
      );
    await app.inject({ method: 'GET', url: `/api/file/${crypto.randomUUID()}` });
    await app.inject({ method: 'GET', url: `/api/no-such-${crypto.randomUUID()}` });
    const first = routesOf(await samples());
    for (let i = 0; i < 3; i++) {
      await app.inject({ method: 'GET', url: `/api/file/${crypto.randomUUID()}` });
      await app.inject({ method: 'GET', url: `/api/no-such-${crypto.randomUUID()}` });
    }
    const second = routesOf(await samples());
    expect([...second].sort()).toEqual([...first].sort());
    for (const route of second) expect(route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(second).toContain('unmatched');
  });

  it('reports the users storing the most by id', async () => {
    const me = (await call<{ id: string }>(app, 'GET', '/user/info', { token: adminToken })).body
      .data!;
    await database.db
      .updateTable('user')
      .set({ usedBytes: 123_456 })
      .where('id', '=', me.id)
      .execute();
    const all = await samples();
    const used = all.filter((s) => s.name === 'nimbus_user_used_bytes');
    expect(used.length).toBeGreaterThan(0);
    expect(used.length).toBeLessThanOrEqual(50);
    expect(used.find((s) => s.labels.user_id === me.id)?.value).toBe(123_456);
    for (const s of used) expect(s.labels.user_id).not.toBe(ADMIN.username);
  });

  it('counts the upload sessions under way and the documents waiting for text reading and OCR', async () => {
    const valueOf = (all: Sample[], name: string, labels: Record<string, string>) =>
      all.find(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      )?.value ?? 0;
    const before = await samples();
    // the first of two chunks: the session stays under way
    const plan = chunkPlan({ name: 'half.bin', content: Buffer.alloc(20, 7), chunkSize: 10 });
    const first = plan.chunks[0]!;
    const fields = {
      ...plan.base,
      chunkNumber: first.chunkNumber,
      currentChunkSize: first.currentChunkSize,
    };
    const sent = await sendChunk(app, userToken, fields, first.bytes);
    expect(sent.body.code, sent.body.message).toBe(0);
    const after = await samples();
    const uploading = { state: 'uploading' };
    expect(valueOf(after, 'nimbus_upload_sessions', uploading)).toBe(
      valueOf(before, 'nimbus_upload_sessions', uploading) + 1,
    );
    // every lane is reported, queued and running, when empty too
    for (const lane of ['text', 'ocr'])
      for (const state of ['queued', 'running'])
        expect(
          after.some(
            (s) =>
              s.name === 'nimbus_content_queue' &&
              s.labels.lane === lane &&
              s.labels.state === state,
          ),
          `${lane} ${state}`,
        ).toBe(true);
    // a document put back in the OCR queue is counted there
    await uploadFile(app, userToken, { name: 'scan.txt', content: Buffer.from('to be read') });
    let doc: { docKey: number } | undefined;
    for (const deadline = Date.now() + 10_000; !doc && Date.now() < deadline;) {
      doc = await database.db
        .selectFrom('searchDoc')
        .select('docKey')
        .where('name', '=', 'scan.txt')
        .where('live', '=', 1)
        .executeTakeFirst();
      if (!doc) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(doc).toBeDefined();
    const queued = { lane: 'ocr', state: 'queued' };
    const ocrBefore = valueOf(await samples(), 'nimbus_content_queue', queued);
    await database.db
      .updateTable('searchDoc')
      .set({ state: 'pending_ocr' })
      .where('docKey', '=', doc!.docKey)
      .execute();
    expect(valueOf(await samples(), 'nimbus_content_queue', queued)).toBe(ocrBefore + 1);
  });

  it('never writes the scrape token to the log', async () => {
    await scrape(bearer);
    await scrape({ authorization: `Bearer ${SCRAPE_TOKEN}x` });
    expect(logged.length).toBeGreaterThan(0);
    expect(logged).not.toContain(SCRAPE_TOKEN);
  });
});
