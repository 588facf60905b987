import { Redis } from 'ioredis';
import {
  EVENT_TYPES,
  InProcessEventBus,
  type EventBus,
  type EventBusLogger,
  type EventListener,
  type EventMessage,
  type EventUserLookup,
  type PublishOptions,
} from './bus.ts';

/** The one channel every node publishes to and listens on. */
export const EVENTS_CHANNEL = 'nimbus:events';

/** What travels over Redis: whose event it is, the message, and the used bytes if known. */
interface WireEvent {
  userId: string;
  url: EventMessage['url'];
  body: unknown;
  fileId?: string;
  space?: number;
}

const eventTypes = new Set<string>(EVENT_TYPES);

function parseWire(text: string): WireEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Partial<WireEvent>;
  if (typeof v.userId !== 'string' || typeof v.url !== 'string' || !eventTypes.has(v.url))
    return undefined;
  if (v.fileId !== undefined && typeof v.fileId !== 'string') return undefined;
  if (v.space !== undefined && typeof v.space !== 'number') return undefined;
  return v as WireEvent;
}

/**
 * Live events shared by every node that points at one Redis: a publish goes to one Redis pub/sub
 * channel, and each node hands what arrives to its own subscribers through an in-process bus
 * (same per-user order, same username and used-bytes lookup). Redis keeps the order of one
 * connection's messages, so one user's events published on a node arrive everywhere in that order.
 *
 * Without Redis (not yet connected, or gone) a publish is delivered to this node's subscribers
 * only, and a warning is logged once per outage; the connections come back by themselves.
 */
export class RedisEventBus implements EventBus {
  private readonly local: InProcessEventBus;
  private publisher: Redis | undefined;
  private subscriber: Redis | undefined;
  private subscribed = false;
  private readonly sending = new Set<Promise<unknown>>();
  private log: EventBusLogger | undefined;
  /** A warning about this outage was logged already. */
  private warned = false;
  private closed = false;

  constructor(
    lookup: EventUserLookup,
    private readonly url: string,
  ) {
    this.local = new InProcessEventBus(lookup);
  }

  start(options: { log?: EventBusLogger } = {}): void {
    if (options.log) this.log = options.log;
    this.local.start(options);
    if (this.closed || this.publisher) return;
    // A publish must not wait for a connection that is down: it fails at once (no offline
    // queue, no retry) and is delivered on this node instead.
    this.publisher = new Redis(this.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      connectionName: 'nimbus-events-pub',
    });
    // The subscription waits for Redis however long it takes, and is renewed on reconnection.
    this.subscriber = new Redis(this.url, {
      maxRetriesPerRequest: null,
      connectionName: 'nimbus-events-sub',
    });
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (err: unknown) => this.outage(err));
      connection.on('ready', () => {
        if (this.publisher?.status === 'ready' && this.subscriber?.status === 'ready')
          this.warned = false;
      });
    }
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== EVENTS_CHANNEL) return;
      const wire = parseWire(text);
      if (!wire) {
        this.log?.warn({ channel }, 'live event from Redis ignored: not a Nimbus event');
        return;
      }
      this.local.publish(
        wire.userId,
        {
          url: wire.url,
          body: wire.body,
          ...(wire.fileId === undefined ? {} : { fileId: wire.fileId }),
        },
        wire.space === undefined ? {} : { space: wire.space },
      );
    });
    this.subscriber.subscribe(EVENTS_CHANNEL).then(
      () => {
        this.subscribed = true;
      },
      (err: unknown) => {
        if (!this.closed) this.outage(err);
      },
    );
  }

  /** Whether this node listens on Redis (tests wait for it before publishing elsewhere). */
  isConnected(): boolean {
    return (
      this.subscribed && this.subscriber?.status === 'ready' && this.publisher?.status === 'ready'
    );
  }

  publish(userId: string, message: EventMessage, options: PublishOptions = {}): void {
    if (this.closed) return;
    const publisher = this.publisher;
    if (!publisher || publisher.status !== 'ready') {
      if (publisher) this.outage(new Error(`Redis connection is ${publisher.status}`));
      this.local.publish(userId, message, options);
      return;
    }
    const wire: WireEvent = {
      userId,
      url: message.url,
      body: message.body,
      ...(message.fileId === undefined ? {} : { fileId: message.fileId }),
      ...(options.space === undefined ? {} : { space: options.space }),
    };
    const sent = publisher
      .publish(EVENTS_CHANNEL, JSON.stringify(wire))
      .catch((err: unknown) => {
        // Not sent: this node's subscribers still hear it.
        this.outage(err);
        this.local.publish(userId, message, options);
      })
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  subscribe(userId: string, listener: EventListener): () => void {
    return this.local.subscribe(userId, listener);
  }

  /** Listeners of one user on this node (tests, metrics). */
  listenerCount(userId: string): number {
    return this.local.listenerCount(userId);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.sending);
    // Nothing is left to flush: the connections end now and stop reconnecting.
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
    await this.local.close();
  }

  private outage(err: unknown): void {
    if (this.warned || this.closed) return;
    this.warned = true;
    this.log?.warn(
      { err },
      'Redis unreachable: live events reach only the clients of this node until it is back',
    );
  }
}
