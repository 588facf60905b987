import type { Page } from 'playwright-core';

/** One answer as it crossed the wire: its path, its size with headers, and how it was sent. */
export interface WireAnswer {
  url: string;
  /** bytes received for this answer, headers included, as Chromium's network layer counted */
  bytes: number;
  encoding?: string;
  cache?: string;
}

/** A link's speed, as Chromium's network emulation takes it. */
export interface LinkConditions {
  /** round-trip latency in milliseconds */
  latencyMs: number;
  /** bits per second, both ways */
  bitsPerSecond: number;
}

/**
 * Records every answer the page receives from now on, through Chromium's own network events
 * (Playwright's per-request sizes miss answers the preload scanner fetched), optionally over an
 * emulated link. `answers()` is what has finished so far.
 */
export async function recordWire(
  page: Page,
  link?: LinkConditions,
): Promise<{ answers: () => WireAnswer[]; total: () => number }> {
  const cdp = await page.context().newCDPSession(page);
  const heads = new Map<string, Omit<WireAnswer, 'bytes'>>();
  const done: WireAnswer[] = [];
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    heads.set(requestId, {
      url: new URL(response.url).pathname,
      encoding: headers['content-encoding'],
      cache: headers['cache-control'],
    });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const head = heads.get(requestId);
    if (head) done.push({ ...head, bytes: encodedDataLength });
  });
  await cdp.send('Network.enable');
  if (link) {
    const bytesPerSecond = link.bitsPerSecond / 8;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: link.latencyMs,
      downloadThroughput: bytesPerSecond,
      uploadThroughput: bytesPerSecond,
    });
  }
  return {
    answers: () => [...done],
    total: () => done.reduce((sum, a) => sum + a.bytes, 0),
  };
}
