import http from 'node:http';
import { vi } from 'vitest';
import type { LiveEvent } from '../src/events/bus.ts';

// A real HTTP client on a node's event stream (`GET /api/events`), for the tests of several nodes.

/** A real HTTP client on a node's event stream: the data messages, parsed. */
export interface Stream {
  events: LiveEvent[];
  close(): void;
}

export function openStream(base: string, token: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}/api/events`,
      { headers: { accept: 'text/event-stream', 'nimbus-token': token } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`event stream answered ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        const stream: Stream = { events: [], close: () => request.destroy() };
        let buffer = '';
        let connected = false;
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (block.includes('event: connected')) {
              // subscribed on the node: what is published from now on reaches this stream
              connected = true;
              resolve(stream);
              continue;
            }
            for (const line of block.split('\n')) {
              if (line.startsWith('data: '))
                stream.events.push(JSON.parse(line.slice(6)) as LiveEvent);
            }
          }
        });
        res.on('close', () => {
          if (!connected) reject(new Error('event stream closed before it opened'));
        });
      },
    );
    request.on('error', reject);
  });
}

export async function until<T>(
  take: () => T | undefined,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  return vi.waitFor(
    () => {
      const value = take();
      if (value === undefined) throw new Error(`still waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: 10 },
  );
}
