import type { ServerResponse } from 'node:http';
import { EVENT_RECONNECT_MS } from '@nimbus/contract';
import type { EventBus, LiveEvent } from './bus.ts';

export interface EventStreamOptions {
  /** A `:heartbeat` comment keeps proxies from closing an idle stream (API-NOTES §2: 30 s). */
  heartbeatMs: number;
  /** A stream is closed after this long; the client reconnects (API-NOTES §2: 30 min). */
  maxLifetimeMs: number;
  /** Open streams per user; the oldest is closed beyond it (API-NOTES §2: 128). */
  maxPerUser: number;
  /** A client that reads slower than this many buffered bytes is dropped, not buffered forever. */
  maxBufferedBytes: number;
}

export const DEFAULT_EVENT_STREAM_OPTIONS: EventStreamOptions = {
  heartbeatMs: 30_000,
  maxLifetimeMs: 30 * 60_000,
  maxPerUser: 128,
  maxBufferedBytes: 1024 * 1024,
};

export interface OpenStream {
  userId: string;
  username: string;
  /** The client's identifier of this stream (the `uuid` query), for logs. */
  clientId: string | undefined;
  response: ServerResponse;
}

interface Connection extends OpenStream {
  openedAt: number;
  close(reason: CloseReason): void;
}

export type CloseReason = 'client' | 'lifetime' | 'limit' | 'slow' | 'shutdown';

/**
 * The open SSE streams of this node: one per browser tab. Each stream listens to its user's
 * events on the bus and writes them as unnamed `data:` messages.
 */
export class EventStreams {
  readonly options: EventStreamOptions;
  private readonly byUser = new Map<string, Connection[]>();
  private shuttingDown = false;

  constructor(
    private readonly bus: EventBus,
    options: Partial<EventStreamOptions> = {},
  ) {
    this.options = { ...DEFAULT_EVENT_STREAM_OPTIONS, ...options };
  }

  /** Open streams of a user on this node. */
  count(userId: string): number {
    return this.byUser.get(userId)?.length ?? 0;
  }

  /** Open streams on this node, all users together. */
  total(): number {
    let n = 0;
    for (const list of this.byUser.values()) n += list.length;
    return n;
  }

  /**
   * Takes over a response whose headers are not sent yet and keeps it open until the client
   * leaves, its lifetime ends, it falls behind, the user opens too many, or the server stops.
   */
  open(stream: OpenStream, extraHeaders: Record<string, string | string[]> = {}): void {
    const { response, userId } = stream;
    if (this.shuttingDown) {
      response.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '5' }).end();
      return;
    }
    response.writeHead(200, {
      ...extraHeaders,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Proxies such as nginx would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    const { options } = this;
    const socket = response.socket;
    socket?.setNoDelay(true);
    // The stream stays open far longer than any request timeout.
    socket?.setTimeout(0);

    const write = (chunk: string) => {
      if (response.writableEnded || response.destroyed) return;
      response.write(chunk);
      if (response.writableLength > options.maxBufferedBytes) connection.close('slow');
    };

    let closed = false;
    const connection: Connection = {
      ...stream,
      openedAt: Date.now(),
      close: (reason) => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        this.remove(connection);
        if (reason === 'client') return;
        if (reason === 'slow') {
          response.destroy();
          return;
        }
        response.end();
        // On shutdown the connection must not linger as keep-alive: the server waits for it.
        if (reason === 'shutdown') socket?.end();
      },
    };

    const unsubscribe = this.bus.subscribe(userId, (event: LiveEvent) => {
      write(`data: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => write(':heartbeat\n\n'), options.heartbeatMs);
    const lifetime = setTimeout(() => connection.close('lifetime'), options.maxLifetimeMs);
    heartbeat.unref();
    lifetime.unref();
    response.on('close', () => connection.close('client'));

    const list = this.byUser.get(userId) ?? [];
    list.push(connection);
    this.byUser.set(userId, list);
    while (list.length > options.maxPerUser) list[0]?.close('limit');

    // spec §9: the client waits 5 s before reconnecting; `retry` tells EventSource the same.
    write(
      `retry: ${EVENT_RECONNECT_MS}\nevent: connected\ndata: ${JSON.stringify({
        username: stream.username,
        uuid: stream.clientId ?? null,
      })}\n\n`,
    );
  }

  /** Ends every stream and refuses new ones (server shutdown). */
  closeAll(): void {
    this.shuttingDown = true;
    for (const list of [...this.byUser.values()]) {
      for (const connection of [...list]) connection.close('shutdown');
    }
  }

  private remove(connection: Connection): void {
    const list = this.byUser.get(connection.userId);
    if (!list) return;
    const index = list.indexOf(connection);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) this.byUser.delete(connection.userId);
  }
}
