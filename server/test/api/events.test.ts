import http from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, useAdminApp } from '../harness.ts';

interface SseEvent {
  event: string | undefined;
  data: string;
  retry?: number;
}

/** A real HTTP client reading an event stream (inject cannot stream). */
interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  events: SseEvent[];
  comments: string[];
  ended: Promise<void>;
  isEnded(): boolean;
  nextEvent(predicate?: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  nextComment(timeoutMs?: number): Promise<string>;
  close(): void;
}

function connect(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}${path}`,
      { headers: { accept: 'text/event-stream', ...headers } },
      (res) => {
        res.setEncoding('utf8');
        let buffer = '';
        let ended = false;
        const listeners = new Set<() => void>();
        const notify = () => {
          for (const l of [...listeners]) l();
        };
        const client: SseClient = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: '',
          events: [],
          comments: [],
          ended: new Promise((done) => {
            res.on('end', () => {
              ended = true;
              notify();
              done();
            });
            res.on('close', () => {
              ended = true;
              notify();
              done();
            });
          }),
          isEnded: () => ended,
          nextEvent(predicate = () => true, timeoutMs = 5000) {
            return waitFor(
              () => {
                const i = client.events.findIndex(predicate);
                return i >= 0 ? client.events.splice(i, 1)[0] : undefined;
              },
              timeoutMs,
              'event',
            );
          },
          nextComment(timeoutMs = 5000) {
            return waitFor(() => client.comments.shift(), timeoutMs, 'comment');
          },
          close: () => request.destroy(),
        };
        const waitFor = <T>(take: () => T | undefined, timeoutMs: number, what: string) =>
          new Promise<T>((ok, fail) => {
            const check = () => {
              const value = take();
              if (value !== undefined) {
                cleanup();
                ok(value);
              } else if (ended) {
                cleanup();
                fail(new Error(`stream ended before the ${what}`));
              }
            };
            const timer = setTimeout(() => {
              cleanup();
              fail(new Error(`no ${what} within ${timeoutMs} ms`));
            }, timeoutMs);
            const cleanup = () => {
              clearTimeout(timer);
              listeners.delete(check);
            };
            listeners.add(check);
            check();
          });
        res.on('data', (chunk: string) => {
          client.body += chunk;
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event: SseEvent = { event: undefined, data: '' };
            let hasData = false;
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) client.comments.push(line.slice(1));
              else if (line.startsWith('event: ')) event.event = line.slice(7);
              else if (line.startsWith('retry: ')) event.retry = Number(line.slice(7));
              else if (line.startsWith('data: ')) {
                event.data += (hasData ? '\n' : '') + line.slice(6);
                hasData = true;
              }
            }
            if (hasData) client.events.push(event);
          }
          notify();
        });
        resolve(client);
      },
    );
    request.on('error', reject);
  });
}

let base: string;

const { t, admin } = useAdminApp();
beforeEach(async () => {
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

const streamOf = (token: string, query = '') =>
  connect(base, `/api/events?uuid=tab-1${query}`, { 'nimbus-token': token });

describe('GET /api/events', () => {
  it('opens an event stream that starts with a connected event', async () => {
    const stream = await streamOf(admin.token, '&username=admin');
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toContain('no-cache');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    const first = await stream.nextEvent();
    expect(first.event).toBe('connected');
    expect(first.retry).toBe(5000);
    expect(JSON.parse(first.data)).toEqual({ username: 'admin', uuid: 'tab-1' });
    stream.close();
  });

  it('delivers a published message with the user name and their used bytes at publish time', async () => {
    const stream = await streamOf(admin.token);
    await stream.nextEvent((e) => e.event === 'connected');
    await t.database.db
      .updateTable('user')
      .set({ usedBytes: 123456 })
      .where('id', '=', admin.userId)
      .execute();

    t.app.services.events.publish(admin.userId, {
      url: 'operationTips',
      body: { operation: 'copy', success: true },
    });
    const message = await stream.nextEvent();
    expect(message.event).toBeUndefined();
    expect(JSON.parse(message.data)).toEqual({
      username: 'admin',
      url: 'operationTips',
      body: { operation: 'copy', success: true },
      space: 123456,
    });

    // A caller that knows the new size passes it.
    t.app.services.events.publish(
      admin.userId,
      { url: 'deleteFile', body: '/a.txt' },
      { space: 7 },
    );
    expect(JSON.parse((await stream.nextEvent()).data)).toMatchObject({
      url: 'deleteFile',
      body: '/a.txt',
      space: 7,
    });
    stream.close();
  });

  it('keeps one user’s events in publish order', async () => {
    const stream = await streamOf(admin.token);
    await stream.nextEvent((e) => e.event === 'connected');
    for (let i = 0; i < 50; i++)
      t.app.services.events.publish(admin.userId, { url: 'updateFile', body: { i } });
    const seen: number[] = [];
    for (let i = 0; i < 50; i++)
      seen.push((JSON.parse((await stream.nextEvent()).data) as { body: { i: number } }).body.i);
    expect(seen).toEqual([...Array(50).keys()]);
    stream.close();
  });

  it('never gives a user another user’s events, whatever username the query names', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const adminStream = await streamOf(admin.token);
    const bobStream = await streamOf(bob.token, '&username=admin');
    expect(JSON.parse((await bobStream.nextEvent()).data)).toMatchObject({ username: 'bob' });
    await adminStream.nextEvent((e) => e.event === 'connected');

    t.app.services.events.publish(admin.userId, {
      url: 'createFile',
      body: { name: 'secret.txt' },
    });
    t.app.services.events.publish(bob.userId, { url: 'createFile', body: { name: 'bob.txt' } });

    expect(JSON.parse((await adminStream.nextEvent()).data)).toMatchObject({
      username: 'admin',
      body: { name: 'secret.txt' },
    });
    expect(JSON.parse((await bobStream.nextEvent()).data)).toMatchObject({
      username: 'bob',
      body: { name: 'bob.txt' },
    });
    // Give a stray delivery time to arrive before asserting there was none.
    await new Promise((r) => setTimeout(r, 100));
    expect(bobStream.body).not.toContain('secret.txt');
    expect(adminStream.body).not.toContain('bob.txt');
    adminStream.close();
    bobStream.close();
  });

  it('accepts the token from the cookie or the nimbus-token query (EventSource sends no headers)', async () => {
    const byCookie = await connect(base, '/api/events', { cookie: `nimbus-token=${admin.token}` });
    expect(byCookie.status).toBe(200);
    expect((await byCookie.nextEvent()).event).toBe('connected');
    const byQuery = await connect(
      base,
      `/api/events?nimbus-token=${encodeURIComponent(admin.token)}`,
    );
    expect(byQuery.status).toBe(200);
    expect((await byQuery.nextEvent()).event).toBe('connected');
    byCookie.close();
    byQuery.close();
  });

  it('answers code 5 with HTTP 401 and no stream without a valid token', async () => {
    for (const headers of [{}, { 'nimbus-token': 'not-a-token' }] as Array<
      Record<string, string>
    >) {
      const res = await fetch(`${base}/api/events?username=admin`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toMatchObject({ code: 5 });
    }
  });

  it('sends a heartbeat comment at the configured interval', async () => {
    t.app.services.eventStreams.options.heartbeatMs = 50;
    const stream = await streamOf(admin.token);
    await stream.nextEvent((e) => e.event === 'connected');
    const started = Date.now();
    expect(await stream.nextComment(2000)).toBe('heartbeat');
    expect(await stream.nextComment(2000)).toBe('heartbeat');
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    stream.close();
  });

  it('closes the oldest stream when a user opens more than the limit', async () => {
    t.app.services.eventStreams.options.maxPerUser = 2;
    const first = await streamOf(admin.token);
    await first.nextEvent();
    const second = await streamOf(admin.token);
    await second.nextEvent();
    expect(t.app.services.eventStreams.count(admin.userId)).toBe(2);
    const third = await streamOf(admin.token);
    await third.nextEvent();
    await first.ended;
    expect(second.isEnded()).toBe(false);
    expect(t.app.services.eventStreams.count(admin.userId)).toBe(2);
    second.close();
    third.close();
  });

  it('ends a stream after its maximum lifetime', async () => {
    t.app.services.eventStreams.options.maxLifetimeMs = 200;
    const stream = await streamOf(admin.token);
    await stream.nextEvent();
    await stream.ended;
    expect(t.app.services.eventStreams.count(admin.userId)).toBe(0);
  });

  it('forgets a stream the client closed', async () => {
    const stream = await streamOf(admin.token);
    await stream.nextEvent();
    expect(t.app.services.eventStreams.count(admin.userId)).toBe(1);
    stream.close();
    await expect.poll(() => t.app.services.eventStreams.count(admin.userId)).toBe(0);
  });

  it('ends open streams when the server closes, without waiting for them', async () => {
    const streams = await Promise.all([streamOf(admin.token), streamOf(admin.token)]);
    for (const s of streams) await s.nextEvent();
    const started = Date.now();
    await t.app.close();
    expect(Date.now() - started).toBeLessThan(2000);
    await Promise.all(streams.map((s) => s.ended));
  });
});
