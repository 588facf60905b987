import { PRODUCT_VERSION, type VersionStatus } from '@nimbus/contract';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { compareVersions, readFeed, webAddress, type FeedRelease } from './update-feed.ts';

/** How often the feed is read again while the server runs. */
const CHECK_EVERY_MS = 24 * 3600_000;
/** The most of a feed's answer that is read. */
const FEED_MAX_BYTES = 64 * 1024;
const MAX_REDIRECTS = 3;

export interface UpdateCheckLog {
  warn(details: object, message: string): void;
}

export interface UpdateCheckOptions {
  /** The operator's update feed (NIMBUS_UPDATE_FEED); unset: never checked. */
  feed: string | undefined;
  /** The version this server runs. */
  currentVersion?: string;
  /** How long one check may take, redirects and body included. */
  timeoutMs?: number;
}

/** A feed that could not be read or said something not taken; its text is never logged. */
class FeedProblem extends Error {}

/**
 * Whether a newer Nimbus exists, from the update feed the operator configured. Nothing is fetched
 * without one: a self-hosted drive calls out to the internet only when asked to.
 */
export class UpdateCheckService {
  private readonly feed: URL | null;
  private readonly currentVersion: string;
  private readonly timeoutMs: number;
  private latest: FeedRelease | null = null;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private log: UpdateCheckLog | undefined;
  /** The problem last logged: a feed that stays broken is logged once, not at every check. */
  private loggedProblem: string | null = null;

  constructor(options: UpdateCheckOptions) {
    this.feed = options.feed ? webAddress(options.feed) : null;
    this.currentVersion = options.currentVersion ?? PRODUCT_VERSION;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Reads the feed now and then every 24 hours, until `stop`. */
  start(options: { log?: UpdateCheckLog } = {}): void {
    if (!this.feed || this.timer) return;
    this.log = options.log;
    void this.check();
    this.timer = setInterval(() => void this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** Stops the checks; one under way is waited for (it ends within its timeout). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Reads the feed once (joining a read under way); never rejects. */
  check(): Promise<void> {
    if (!this.feed) return Promise.resolve();
    this.running ??= this.readFeed(this.feed)
      .then((release) => {
        this.latest = release;
        this.loggedProblem = null;
      })
      .catch((err: unknown) => this.warn(err))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Whether the feed announced a version newer than this server's. */
  hasNewVersion(): boolean {
    return this.latest !== null && compareVersions(this.latest.version, this.currentVersion) > 0;
  }

  /** `GET /version/latest` (administrators): this version and the newest the feed announced. */
  status(actor: Actor): VersionStatus {
    requireAuthority(actor, 'cloud:set:sync');
    return {
      currentVersion: this.currentVersion,
      newVersion: this.hasNewVersion(),
      updateChecks: this.feed !== null,
      ...(this.latest ? { latestVersion: this.latest.version, latestUrl: this.latest.url } : {}),
    };
  }

  private warn(err: unknown): void {
    // only our own sentences and the feed's host: its path or query may hold a token
    const problem =
      err instanceof FeedProblem
        ? err.message
        : err instanceof Error && err.name === 'TimeoutError'
          ? `the feed did not answer within ${this.timeoutMs / 1000} s`
          : 'the feed could not be reached';
    if (problem === this.loggedProblem) return;
    this.loggedProblem = problem;
    this.log?.warn({ feedHost: this.feed?.host }, `update check: ${problem}`);
  }

  private async readFeed(feed: URL): Promise<FeedRelease> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let url = feed;
    for (let hop = 0; ; hop++) {
      const response = await fetch(url, {
        redirect: 'manual',
        signal,
        headers: { accept: 'application/json', 'user-agent': `Nimbus/${this.currentVersion}` },
      });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get('location');
        // a redirect leads to another http or https address only, and only a few times
        const next = location ? webAddress(location, url) : null;
        if (!next) throw new FeedProblem('the feed redirects to an address that is not http(s)');
        if (hop >= MAX_REDIRECTS) throw new FeedProblem('the feed redirects too many times');
        url = next;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new FeedProblem(`the feed answered HTTP ${response.status}`);
      }
      const text = await readAtMost(response, FEED_MAX_BYTES);
      let document: unknown;
      try {
        document = JSON.parse(text);
      } catch {
        throw new FeedProblem('the feed is not JSON');
      }
      const release = readFeed(document);
      if ('problem' in release) throw new FeedProblem(release.problem);
      return release;
    }
  }
}

/** The body as text, refused when it is longer than `limit` bytes (no more than that is read). */
async function readAtMost(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new FeedProblem('the feed is larger than 64 KB');
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new FeedProblem('the feed is larger than 64 KB');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
