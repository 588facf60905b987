import { describe, expect, it } from 'vitest';
import { ENDPOINTS, ErrorCode } from '@nimbus/contract';
import { call, makeUser, useAdminApp } from '../harness.ts';

// Each endpoint is defined once, in the contract; the server registers its route from the
// definition. These tests hold the definitions and the route table equal.

/**
 * Routes still registered the older way, with their schemas written in the route file. The
 * list only shrinks: a route moved to a contract definition leaves it, and a new route that
 * is not defined in the contract fails the test.
 */
const OLDER_ROUTES = new Set([
  'GET /history/office/list',
  'GET /office/editor',
  'GET /office/file',
  'POST /office/signature',
  'POST /office/track',
  'GET /office/version',
  'GET /preview/archive',
  'GET /preview/office',
  'GET /preview/path/text',
  'GET /preview/path/text/stream',
  'GET /preview/text',
  'GET /preview/text/stream',
  'GET /public/office/config',
  'POST /public/office/signature',
  'GET /public/s/preview/archive',
  'GET /public/s/preview/office',
  'GET /public/s/preview/text/stream',
  'GET /search-file',
]);

const { t, admin } = useAdminApp({ once: true });

/** `METHOD /path` of every API route the server registered (HEAD twins and the docs left out). */
function apiRoutes(): string[] {
  return t.app.routeTable
    .filter(
      (r) => r.method !== 'HEAD' && r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'),
    )
    .map((r) => `${r.method} ${r.url.slice('/api'.length)}`);
}

describe('endpoints', () => {
  it('each has its route, registered with the schemas of its definition', () => {
    for (const e of ENDPOINTS) {
      const route = t.app.routeTable.find(
        (r) => r.method === e.method && r.url === `/api${e.path}`,
      );
      expect(route, `${e.method} ${e.path}`).toBeDefined();
      expect(
        (route!.schema as { params?: unknown } | undefined)?.params,
        `${e.method} ${e.path} params`,
      ).toBe(e.params);
      expect(route!.schema?.querystring, `${e.method} ${e.path} query`).toBe(e.query);
      expect(route!.schema?.body, `${e.method} ${e.path} body`).toBe(e.body);
      expect(
        Boolean((route!.config as { public?: boolean } | undefined)?.public),
        `${e.method} ${e.path} public`,
      ).toBe(e.access === 'public');
      // a download link carries no token: the cookie signs it in only where the definition says
      expect(
        Boolean((route!.config as { cookieAuth?: boolean } | undefined)?.cookieAuth),
        `${e.method} ${e.path} cookie`,
      ).toBe(Boolean(e.cookieAuth));
      // an answer of bytes has no envelope to describe
      expect(route!.schema?.response === undefined, `${e.method} ${e.path} bytes`).toBe(
        e.answer === 'bytes',
      );
    }
  });

  it('cover every route, save the older ones listed here', () => {
    const defined = new Set(ENDPOINTS.map((e) => `${e.method} ${e.path}`));
    const routes = apiRoutes();
    expect(routes.filter((r) => !defined.has(r) && !OLDER_ROUTES.has(r))).toEqual([]);
    // a route defined now leaves the list, and the list names no route that is gone
    expect([...OLDER_ROUTES].filter((r) => defined.has(r) || !routes.includes(r))).toEqual([]);
    expect(new Set(routes.filter((r) => defined.has(r)))).toEqual(defined);
  });

  it('that need an authority refuse a signed-in person without it', async () => {
    const person = await makeUser(t.app, admin.token);
    for (const e of ENDPOINTS.filter((d) => d.authority)) {
      const res = await call(t.app, e.method, e.path, { token: person.token });
      expect([res.status, res.body.code], `${e.method} ${e.path}`).toEqual([
        403,
        ErrorCode.PERMISSION_DENIED,
      ]);
      // an administrator holds every authority: whatever the answer, it is not that refusal
      const allowed = await call(t.app, e.method, e.path, { token: admin.token });
      expect(allowed.body.code, `${e.method} ${e.path} as administrator`).not.toBe(
        ErrorCode.PERMISSION_DENIED,
      );
    }
  });

  it('are in the OpenAPI document, with the authority each needs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json<{ paths: Record<string, Record<string, { description?: string }>> }>();
    for (const e of ENDPOINTS) {
      // the document writes a path parameter `{name}` (and the rest of a path `{*}`)
      const path = e.path.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{*}');
      const operation = doc.paths[`/api${path}`]?.[e.method.toLowerCase()];
      expect(operation, `${e.method} ${e.path}`).toBeDefined();
      if (e.authority) expect(operation!.description).toContain(e.authority);
    }
  });
});
