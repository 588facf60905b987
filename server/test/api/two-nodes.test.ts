import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dialect, makeTestApp, makeUser, setupAdmin, type TestApp } from '../harness.ts';
import { openStream, until, type Stream } from '../event-stream.ts';
import { NGINX, kill, startBalancer, startNode, type Balancer, type Node } from '../nodes.ts';
import { haveRedis, startRedis, stopRedis } from '../redis-server.ts';
import { chunkPlan, multipartBody } from '../upload-client.ts';

// Two Nimbus server processes share one PostgreSQL, one data folder and one Redis behind nginx:
// whatever a person starts on one node, the other sees, continues and holds to the same limits.

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
}

async function api<T>(
  base: string,
  method: string,
  url: string,
  options: { token?: string; query?: Record<string, string | number>; body?: unknown } = {},
): Promise<{ status: number; body: Envelope<T> }> {
  const query = new URLSearchParams(
    Object.entries(options.query ?? {}).map(([k, v]) => [k, String(v)]),
  ).toString();
  const res = await fetch(`${base}/api${url}${query ? `?${query}` : ''}`, {
    method,
    headers: {
      ...(options.token ? { 'nimbus-token': options.token } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Envelope<T> };
}

const describeNodes = dialect === 'postgres' && haveRedis && NGINX ? describe : describe.skip;

describeNodes('two nodes behind nginx, sharing PostgreSQL, a data folder and Redis', () => {
  let seed: TestApp;
  let redis: { process: ChildProcess; url: string };
  let a: Node;
  let b: Node;
  let balancer: Balancer;
  let ann: { token: string; username: string; password: string };
  const streams: Stream[] = [];

  beforeAll(async () => {
    seed = await makeTestApp();
    const admin = await setupAdmin(seed.app);
    ann = await makeUser(seed.app, admin.token, { username: 'ann', password: 'ann-secret' });
    await seed.close();
    redis = await startRedis();
    const env = {
      NIMBUS_DATABASE_URL: seed.config.databaseUrl!,
      NIMBUS_DATA_DIR: seed.dataDir,
      NIMBUS_REDIS_URL: redis.url,
      NIMBUS_TRUST_PROXY: 'true',
    };
    [a, b] = await Promise.all([startNode(env), startNode(env)]);
    balancer = await startBalancer([a.port, b.port]);
  }, 300_000);
  afterAll(async () => {
    for (const s of streams) s.close();
    await balancer?.stop();
    await Promise.all([a, b].filter(Boolean).map((n) => kill(n.process)));
    if (redis) await stopRedis(redis.process);
  });

  /** Sends the chunks of `plan` numbered in `which` to a node; the last answer. */
  async function sendChunks(
    base: string,
    plan: ReturnType<typeof chunkPlan>,
    which: number[],
  ): Promise<Envelope<{ merge: boolean }>> {
    let last: Envelope<{ merge: boolean }> = { code: -1, message: 'nothing sent' };
    for (const c of plan.chunks.filter((c) => which.includes(c.chunkNumber))) {
      const { payload, contentType } = multipartBody(
        { ...plan.base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
        c.bytes,
        plan.base.filename,
      );
      const res = await fetch(`${base}/api/upload`, {
        method: 'POST',
        headers: { 'content-type': contentType, 'nimbus-token': ann.token },
        body: payload,
      });
      last = (await res.json()) as Envelope<{ merge: boolean }>;
      if (last.code !== 0) return last;
    }
    return last;
  }

  async function download(base: string, path: string): Promise<Buffer> {
    const res = await fetch(`${base}/api/file/ann${path}`, {
      headers: { 'nimbus-token': ann.token },
    });
    expect(res.status, path).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  it('shows an upload made on node A to a browser on node B, and node B serves its bytes', async () => {
    const onB = await openStream(b.base, ann.token);
    streams.push(onB);
    const content = Buffer.alloc(3 * 1024 * 1024 + 17, 'nimbus ');
    const plan = chunkPlan({ name: 'report.bin', content, chunkSize: 1024 * 1024 });
    expect((await sendChunks(a.base, plan, [1, 2, 3])).code).toBe(0);
    const merged = await api<{ file: { id: string } }>(a.base, 'POST', '/merge', {
      token: ann.token,
      query: plan.base,
    });
    expect(merged.body.code, merged.body.message).toBe(0);
    const event = await until(
      () =>
        onB.events.find(
          (e) => e.url === 'createFile' && (e.body as { name?: string }).name === 'report.bin',
        ),
      'the upload on node B',
    );
    expect(event.username).toBe('ann');
    expect(sha256(await download(b.base, '/report.bin'))).toBe(sha256(content));
  });

  it('opens on node B a share link made on node A', async () => {
    const listed = await api<{ id: string; name: string }[]>(a.base, 'GET', '/list', {
      token: ann.token,
      query: { currentDirectory: '/' },
    });
    const id = listed.body.data?.find((f) => f.name === 'report.bin')?.id;
    expect(id, listed.body.message).toBeTruthy();
    const share = await api<{ shortId: string }>(a.base, 'POST', '/share/generate', {
      token: ann.token,
      body: { fileId: id },
    });
    expect(share.body.code, share.body.message).toBe(0);
    const opened = await api<{ name: string }[]>(b.base, 'GET', '/public/access-share', {
      query: { share: share.body.data!.shortId },
    });
    expect(opened.body.code, opened.body.message).toBe(0);
    expect(opened.body.data!.map((f) => f.name)).toEqual(['report.bin']);
  });

  it('holds a WebDAV lock taken on node A on node B', async () => {
    const auth = `Basic ${Buffer.from(`ann:${ann.password}`).toString('base64')}`;
    const dav = (base: string, method: string, headers: Record<string, string>, body?: string) =>
      fetch(`${base}/webdav/notes.md`, {
        method,
        headers: { authorization: auth, ...headers },
        body,
      });
    expect((await dav(a.base, 'PUT', {}, 'first')).status).toBe(201);
    const locked = await dav(
      a.base,
      'LOCK',
      { depth: '0', timeout: 'Second-600', 'content-type': 'application/xml' },
      '<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>laptop</D:owner></D:lockinfo>',
    );
    expect(locked.status).toBe(200);
    const lockToken = locked.headers.get('lock-token')!;
    expect((await dav(b.base, 'PUT', {}, 'second')).status).toBe(423);
    expect((await dav(b.base, 'PUT', { if: `(${lockToken})` }, 'second')).status).toBe(204);
    expect((await download(a.base, '/notes.md')).toString()).toBe('second');
  });

  it('checks at most 5 of 200 parallel wrong passwords sent through nginx to both nodes', async () => {
    const before = balancer.upstreams().length;
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        api(balancer.base, 'POST', '/login', {
          body: { username: ADMIN.username, password: `wrong-${i}-password` },
        }),
      ),
    );
    const counts: Record<number, number> = {};
    for (const res of answers) counts[res.status] = (counts[res.status] ?? 0) + 1;
    expect(counts[401] ?? 0).toBeLessThanOrEqual(5);
    expect(counts[429]).toBeGreaterThanOrEqual(195);
    // nginx handed them to both nodes
    const used = new Set(balancer.upstreams().slice(before));
    expect(used).toEqual(new Set([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]));
  });

  it('resumes on node B an upload whose node A was killed in the middle of a chunk', async () => {
    const content = Buffer.alloc(4 * 1024 * 1024, 0);
    for (let i = 0; i < content.length; i += 4)
      content.writeUInt32LE((i * 2654435761) % 2 ** 32, i);
    const plan = chunkPlan({ name: 'resumed.bin', content, chunkSize: 1024 * 1024 });
    expect((await sendChunks(a.base, plan, [1, 2])).code).toBe(0);
    // the third chunk's first half reaches node A, which dies before the rest arrives
    const third = plan.chunks[2]!;
    const { payload, contentType } = multipartBody(
      { ...plan.base, chunkNumber: 3, currentChunkSize: third.currentChunkSize },
      third.bytes,
      plan.base.filename,
    );
    const request = http.request(`${a.base}/api/upload`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'content-length': payload.length,
        'nimbus-token': ann.token,
      },
    });
    request.on('error', () => {});
    await new Promise<void>((resolve) =>
      request.write(payload.subarray(0, payload.length / 2), () => resolve()),
    );
    await new Promise((r) => setTimeout(r, 200));
    await kill(a.process);
    request.destroy();

    // node B knows which chunks arrived whole, takes the rest and merges the right bytes
    const test = await api<{ resume: number[] }>(b.base, 'GET', '/upload', {
      token: ann.token,
      query: { ...plan.base, chunkNumber: 3, currentChunkSize: third.currentChunkSize },
    });
    expect(test.body.code, test.body.message).toBe(0);
    expect(test.body.data!.resume.sort()).toEqual([1, 2]);
    const rest = await sendChunks(b.base, plan, [3, 4]);
    expect(rest.code, rest.message).toBe(0);
    const merged = await api(b.base, 'POST', '/merge', { token: ann.token, query: plan.base });
    expect(merged.body.code, merged.body.message).toBe(0);
    expect(sha256(await download(b.base, '/resumed.bin'))).toBe(sha256(content));
  });
});
