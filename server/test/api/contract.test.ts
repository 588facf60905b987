import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answers } from '@nimbus/contract';
import { ADMIN, call, login, makeTestApp, setupAdmin, type TestApp } from '../harness.ts';

// Every JSON route declares its answer with the contract's schemas: /api/docs shows each
// shape, the web app takes its types from them, and (in these tests) an answer that does not
// fit its schema fails.

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Routes that send bytes, a stream or a page, not a JSON envelope. */
const NOT_JSON = new Set([
  'GET /api/events',
  'GET /api/docs',
  'GET /api/docs/*',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
  'GET /api/docs/static/*',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/public/health',
]);

/** Byte routes: paths that serve file content, zips or thumbnails. */
const isByteRoute = (url: string) =>
  /^\/api\/(file|pre-file|share-file|packageDownload|preview\/office|view\/(?!image\/info)|preview\/(path\/)?text\/stream|history\/preview\/(file|text\/stream)|public\/s\/(preview|download|thumbnail|view\/(?!image\/info)|packageDownload)|thumbnail|(public\/)?video\/hls\/|(public\/s\/)?media\/cover|office\/file)/.test(
    url,
  );

/**
 * Routes not yet moved to the contract's schemas. The list only shrinks: a route that gains
 * its response schema must leave it (the test says so).
 */
const PENDING = new Set<string>([]);

describe('the contract', () => {
  it('gives every JSON route a response schema', () => {
    const routes = t.app.routeTable.filter(
      (r) =>
        r.url.startsWith('/api') &&
        r.method !== 'HEAD' &&
        !NOT_JSON.has(`${r.method} ${r.url}`) &&
        !isByteRoute(r.url),
    );
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes
      .filter((r) => !r.schema?.response)
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(
      missing.filter((r) => !PENDING.has(r)),
      'routes without a response schema',
    ).toEqual([]);
    expect(
      [...PENDING].filter((r) => !missing.includes(r)),
      'routes that now have a schema: take them off PENDING',
    ).toEqual([]);
  });

  it('shows the response shapes in the OpenAPI description', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    }>();
    const listed = JSON.stringify(doc.paths['/api/tag/list']?.get?.responses?.['200']);
    expect(listed).toContain('tagBackground');
  });

  it('fails an answer its schema does not allow', async () => {
    const app = await makeTestApp();
    try {
      app.app.get(
        '/api/test/wrong-shape',
        { config: { public: true }, schema: { response: answers(z.object({ n: z.number() })) } },
        () => ({ code: 0, message: 'true', data: { n: 'not a number' } }),
      );
      const res = await call(app.app, 'GET', '/test/wrong-shape');
      expect(res.status).toBe(500);
      expect(res.body.message).toMatch(/data\.n: must be a number/);
    } finally {
      await app.close();
    }
  });

  it('answers an oversized request as a bad request, never as a full drive', async () => {
    const admin = await setupAdmin(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/setTag',
      headers: { 'nimbus-token': admin.token, 'content-type': 'application/json' },
      payload: JSON.stringify({ fileIds: ['x'], pad: 'x'.repeat(11 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      code: 10,
      message: 'The request is larger than the server accepts',
    });
  });

  it('lets through an answer that fits', async () => {
    const admin = await login(t.app, ADMIN.username, ADMIN.password);
    const res = await call(t.app, 'GET', '/tag/list', { token: admin.token });
    expect(res.status).toBe(200);
  });
});
