import { describe, expect, it } from 'vitest';
import { ENDPOINTS, ErrorCode } from '@nimbus/contract';
import { call, makeUser, useAdminApp } from '../harness.ts';

// Each endpoint is defined once, in the contract; the server registers its route from the
// definition. These tests hold the definitions and the route table equal.

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

  it('and routes match: every route has a definition and every definition a route', () => {
    const defined = ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    const routes = apiRoutes();
    // a route registered without a definition (or by hand beside one)
    expect(routes.filter((r) => !defined.includes(r))).toEqual([]);
    // a definition the server registers no route for
    expect(defined.filter((d) => !routes.includes(d))).toEqual([]);
    // one definition per route
    expect(defined.filter((d, at) => defined.indexOf(d) !== at)).toEqual([]);
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
