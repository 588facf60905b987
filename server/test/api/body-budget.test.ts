import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, useAdminApp } from '../harness.ts';
import { slowBodiesUntilRefused } from '../slow-bodies.ts';

// Request bodies are read into memory before a route runs: those of requests without an
// account are bounded together, so a flood of large bodies to the sign-in page gets "try
// again" rather than the server's memory, and signed-in work goes on.

let base = '';
const { t, admin } = useAdminApp();
beforeEach(async () => {
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

const post = (path: string, body: unknown, token?: string) =>
  fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { 'nimbus-token': token } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('bodies without an account', () => {
  it('are held together up to a bound, and beyond it refused at once until the senders give up', async () => {
    const flood = () =>
      slowBodiesUntilRefused(base, { path: '/api/login', length: 10 * 1024 * 1024 });
    const first = await flood();
    try {
      expect(first.refused).toBe(true);
      // three bodies of 10 MB fill the 32 MB allowance; the fourth is refused
      expect(first.held).toBeGreaterThanOrEqual(3);
      // signed-in work goes on
      const folder = await post(
        `/new_folder?currentDirectory=%2F&filename=during`,
        undefined,
        admin.token,
      );
      expect(((await folder.json()) as { code: number }).code).toBe(0);
    } finally {
      first.close();
    }
    // what the senders held is free again once they are gone
    let again = await flood();
    for (let i = 0; i < 20 && again.held < 3; i++) {
      again.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await flood();
    }
    again.close();
    expect(again.held).toBeGreaterThanOrEqual(3);
    expect((await post('/login', ADMIN)).status).toBe(200);
  });
});
