import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, PRODUCT_VERSION, type UserInfo, type VersionStatus } from '@nimbus/contract';
import { loadConfig } from '../../src/config.ts';
import { UpdateCheckService } from '../../src/modules/health/update-check.service.ts';
import { call, makeTestApp, makeUser, setupAdmin, type TestApp } from '../harness.ts';

// The "new version" badge (spec: "a 'new' badge shows when a new version exists"): the server
// reads the update feed its operator configured and compares the newest release with its own
// version. The feed here is served on a loopback address; nothing else is ever contacted.

type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;

let feedServer: http.Server;
let base: string;
let answer: Answer;
let requests = 0;

const json =
  (document: unknown, status = 200): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(document));
  };

const [major, minor] = PRODUCT_VERSION.split('.').map(Number) as [number, number];
const NEWER = `${major}.${minor + 1}.0`;
const OLDER = ['1.0.0', `${PRODUCT_VERSION}-rc.1`];
const releaseUrl = (version: string) => `https://example.org/nimbus/releases/${version}`;

beforeAll(async () => {
  feedServer = http.createServer((req, res) => {
    requests++;
    // an answer cut short by the client is no failure of the test server
    res.on('error', () => undefined);
    answer(req, res);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  feedServer.closeAllConnections();
  await new Promise((resolve) => feedServer.close(resolve));
});

/** The feed address as an operator sets it, through the one reader of the environment. */
const feedSetting = (path = '/feed.json') =>
  loadConfig({ NIMBUS_UPDATE_FEED: `${base}${path}` }).updateFeed;

describe('the NIMBUS_UPDATE_FEED setting', () => {
  it('takes an http or https address, and nothing (the default) means no checks', () => {
    expect(loadConfig({}).updateFeed).toBeUndefined();
    expect(loadConfig({ NIMBUS_UPDATE_FEED: '' }).updateFeed).toBeUndefined();
    expect(
      loadConfig({ NIMBUS_UPDATE_FEED: 'https://example.org/nimbus/latest.json' }).updateFeed,
    ).toBe('https://example.org/nimbus/latest.json');
    for (const bad of ['javascript:alert(1)', 'ftp://example.org/latest', 'latest.json'])
      expect(() => loadConfig({ NIMBUS_UPDATE_FEED: bad }), bad).toThrow(/NIMBUS_UPDATE_FEED/);
  });
});

describe('without an update feed', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('never shows a new version and tells the administrator that checks are off', async () => {
    const admin = await setupAdmin(t.app);
    const info = await call<UserInfo>(t.app, 'GET', '/user/info', { token: admin.token });
    expect(info.body.data?.newVersion).toBe(false);
    const status = await call<VersionStatus>(t.app, 'GET', '/version/latest', {
      token: admin.token,
    });
    expect(status.body.data).toEqual({
      currentVersion: PRODUCT_VERSION,
      newVersion: false,
      updateChecks: false,
    });
  });
});

describe('with an update feed', () => {
  let t: TestApp;
  let admin: { token: string; userId: string };
  let requestsBefore = 0;

  beforeEach(async () => {
    answer = json({ version: PRODUCT_VERSION, url: releaseUrl(PRODUCT_VERSION) });
    requestsBefore = requests;
    t = await makeTestApp({ updateFeed: feedSetting() });
    admin = await setupAdmin(t.app);
  });
  afterEach(async () => {
    await t.close();
  });

  /** Reads the feed (joining the check the start began) and answers what the web app sees. */
  async function afterCheck(): Promise<{ badge: boolean | undefined; status?: VersionStatus }> {
    await t.app.services.updates.check();
    const info = await call<UserInfo>(t.app, 'GET', '/user/info', { token: admin.token });
    const status = await call<VersionStatus>(t.app, 'GET', '/version/latest', {
      token: admin.token,
    });
    expect(status.body.code, status.body.message).toBe(0);
    return { badge: info.body.data?.newVersion, status: status.body.data };
  }

  it('reads the feed at start and shows no badge for the same version', async () => {
    // no check asked for: the one the start began answers
    await vi.waitFor(async () => {
      const status = await call<VersionStatus>(t.app, 'GET', '/version/latest', {
        token: admin.token,
      });
      expect(status.body.data?.latestVersion).toBe(PRODUCT_VERSION);
    });
    expect(requests).toBe(requestsBefore + 1);
    const { badge, status } = await afterCheck();
    expect(badge).toBe(false);
    expect(status).toEqual({
      currentVersion: PRODUCT_VERSION,
      newVersion: false,
      updateChecks: true,
      latestVersion: PRODUCT_VERSION,
      latestUrl: releaseUrl(PRODUCT_VERSION),
    });
  });

  it('shows no badge for an older version or a pre-release of this one', async () => {
    for (const version of OLDER) {
      answer = json({ version, url: releaseUrl(version) });
      const { badge, status } = await afterCheck();
      expect(badge, version).toBe(false);
      expect(status?.latestVersion).toBe(version);
    }
  });

  it('shows the badge to everyone and the release to administrators for a newer version', async () => {
    answer = json({ version: NEWER, url: releaseUrl(NEWER) });
    const { badge, status } = await afterCheck();
    expect(badge).toBe(true);
    expect(status).toMatchObject({
      newVersion: true,
      latestVersion: NEWER,
      latestUrl: releaseUrl(NEWER),
    });
    const user = await makeUser(t.app, admin.token);
    const info = await call<UserInfo>(t.app, 'GET', '/user/info', { token: user.token });
    expect(info.body.data?.newVersion).toBe(true);
    const refused = await call(t.app, 'GET', '/version/latest', { token: user.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(ErrorCode.PERMISSION_DENIED);
  });

  it("reads a GitHub latest release and follows the feed's redirects", async () => {
    const tag = `v${NEWER}`;
    answer = (req, res) => {
      if (req.url === '/feed.json') {
        res.writeHead(302, { location: '/releases/latest' });
        res.end();
      } else
        json({
          tag_name: tag,
          name: `Nimbus ${NEWER}`,
          html_url: `https://github.com/example/nimbus/releases/tag/${tag}`,
        })(req, res);
    };
    const { badge, status } = await afterCheck();
    expect(badge).toBe(true);
    expect(status).toMatchObject({
      latestVersion: NEWER,
      latestUrl: `https://github.com/example/nimbus/releases/tag/${tag}`,
    });
  });

  it('ignores a feed that is broken, huge or says something not taken, and keeps answering', async () => {
    answer = json({ version: NEWER, url: releaseUrl(NEWER) });
    expect((await afterCheck()).badge).toBe(true);
    const huge = JSON.stringify({
      version: '99.0.0',
      url: releaseUrl('99'),
      pad: 'x'.repeat(70_000),
    });
    const bad: Record<string, Answer> = {
      'not JSON': (_req, res) => res.end('<html>It works!</html>'),
      'a JSON list': json([{ version: '99.0.0', url: releaseUrl('99') }]),
      'a huge body': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(huge);
      },
      'a huge body without a length': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < huge.length; i += 8192) res.write(huge.slice(i, i + 8192));
        res.end();
      },
      'a bad version': json({ version: '99.0.0<script>', url: releaseUrl('99') }),
      'a long version': json({ version: `99.0.0-${'a'.repeat(40)}`, url: releaseUrl('99') }),
      'a javascript: url': json({ version: '99.0.0', url: 'javascript:alert(document.cookie)' }),
      'a long url': json({ version: '99.0.0', url: `https://example.org/${'a'.repeat(2000)}` }),
      'a redirect to javascript:': (_req, res) => {
        res.writeHead(302, { location: 'javascript:alert(1)' });
        res.end();
      },
      'a redirect to a file': (_req, res) => {
        res.writeHead(301, { location: 'file:///etc/passwd' });
        res.end();
      },
      'endless redirects': (_req, res) => {
        res.writeHead(302, { location: '/feed.json' });
        res.end();
      },
      'an error status': json({ version: '99.0.0', url: releaseUrl('99') }, 500),
    };
    for (const [name, feed] of Object.entries(bad)) {
      answer = feed;
      const { badge, status } = await afterCheck();
      expect(badge, name).toBe(true);
      expect(status?.latestVersion, name).toBe(NEWER);
      expect(status?.latestUrl, name).toBe(releaseUrl(NEWER));
    }
    // the same app still reads a good feed afterwards
    answer = json({ version: PRODUCT_VERSION, url: releaseUrl(PRODUCT_VERSION) });
    expect((await afterCheck()).badge).toBe(false);
  });
});

describe('a server that starts with a bad feed', () => {
  it('starts, shows no badge and has no latest version', async () => {
    answer = json({ version: NEWER, url: 'javascript:alert(1)' });
    const t = await makeTestApp({ updateFeed: feedSetting() });
    try {
      const admin = await setupAdmin(t.app);
      await t.app.services.updates.check();
      const info = await call<UserInfo>(t.app, 'GET', '/user/info', { token: admin.token });
      expect(info.body.data?.newVersion).toBe(false);
      const status = await call<VersionStatus>(t.app, 'GET', '/version/latest', {
        token: admin.token,
      });
      expect(status.body.data).toEqual({
        currentVersion: PRODUCT_VERSION,
        newVersion: false,
        updateChecks: true,
      });
    } finally {
      await t.close();
    }
  });
});

describe('the update check', () => {
  const collect = () => {
    const lines: Array<{ details: object; message: string }> = [];
    return {
      lines,
      log: { warn: (details: object, message: string) => lines.push({ details, message }) },
    };
  };

  it('logs a problem once while it lasts, without the feed address or what the feed said', async () => {
    const secret = 'S3cr3tT0ken';
    const checker = new UpdateCheckService({ feed: `${base}/feed.json?token=${secret}` });
    const { lines, log } = collect();
    answer = json({ version: NEWER, url: `javascript:alert("${secret}")` });
    checker.start({ log });
    for (let i = 0; i < 3; i++) await checker.check();
    expect(lines).toHaveLength(1);
    answer = (_req, res) => res.end(`not json ${secret}`);
    await checker.check();
    await checker.check();
    expect(lines).toHaveLength(2);
    answer = json({ version: NEWER, url: releaseUrl(NEWER) });
    await checker.check();
    expect(checker.hasNewVersion()).toBe(true);
    await checker.stop();
    for (const line of lines) {
      expect(JSON.stringify(line)).not.toContain(secret);
      expect(JSON.stringify(line)).not.toContain('feed.json');
    }
    expect(lines[0]!.message).toMatch(/update check/);
  });

  it('gives up on a feed that does not answer in time', async () => {
    const checker = new UpdateCheckService({ feed: feedSetting(), timeoutMs: 300 });
    const { lines, log } = collect();
    const held: http.ServerResponse[] = [];
    answer = (_req, res) => void held.push(res);
    checker.start({ log });
    const started = Date.now();
    await checker.check();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(checker.hasNewVersion()).toBe(false);
    expect(lines).toEqual([
      { details: expect.any(Object), message: expect.stringMatching(/did not answer/) },
    ]);
    await checker.stop();
    for (const res of held) res.destroy();
  });

  it('never reads anything without a feed', async () => {
    const before = requests;
    const checker = new UpdateCheckService({ feed: undefined });
    checker.start();
    await checker.check();
    await checker.stop();
    expect(requests).toBe(before);
    expect(checker.hasNewVersion()).toBe(false);
  });
});
