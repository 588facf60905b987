/**
 * Live event types (spec §4 "Live event stream", API-NOTES §2). The web client forwards synced,
 * calculateFolderSizeProcessed, taskProgress, transcodeStatus and uploaderChunkSize as their own
 * messages and every other type as a file-change message.
 */
export const EVENT_TYPES = [
  'createFile',
  'deleteFile',
  'updateFile',
  'operationFile',
  'operationTips',
  'synced',
  'taskProgress',
  'taskCountChange',
  'transcodeStatus',
  'calculateFolderSizeProcessed',
  'uploaderChunkSize',
  'updateTags',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** What a module publishes: `url` is the message type, `body` its payload. */
export interface EventMessage {
  url: EventType;
  body: unknown;
  /**
   * The item a `deleteFile` is about. The body is the path of the folder it left, which is what
   * the original client compares with the folder it shows; the id lets a client take the item
   * out of any list at once, a long one included, without asking for the folder again.
   */
  fileId?: string;
}

/** Body of `operationFile`: the result of an asynchronous move, copy, rename… */
export interface OperationFileBody {
  operation: string;
  from: string;
  to: string;
  /** 0 success, -1 failure. */
  code: 0 | -1;
  msg?: string;
}

/** Body of `operationTips`. */
export interface OperationTipsBody {
  operation: string;
  success: boolean;
  msg?: string;
}

/** What a subscriber receives: the message plus whose it is and their used bytes. */
export interface LiveEvent {
  username: string;
  url: EventType;
  body: unknown;
  /** The user's used bytes when the event was published (drives the quota bar). */
  space: number;
  /** See EventMessage.fileId. */
  fileId?: string;
}

export type EventListener = (event: LiveEvent) => void;

export interface PublishOptions {
  /** Used bytes already known to the caller; saves a lookup. */
  space?: number;
}

/**
 * Per-user live events. Publishing never throws and never waits: events are best effort (a
 * client that misses one refetches). Events of one user are delivered in publish order.
 * Implementations: `InProcessEventBus` (one process) and `RedisEventBus` (every node sharing one
 * Redis, `NIMBUS_REDIS_URL`).
 */
export interface EventBus {
  /** Connects what it needs; events published before are still delivered in-process. */
  start(options?: { log?: EventBusLogger }): void;
  publish(userId: string, message: EventMessage, options?: PublishOptions): void;
  /** Listen to one user's events; returns the unsubscribe function. */
  subscribe(userId: string, listener: EventListener): () => void;
  /** Delivers what is already published, then refuses more. */
  close(): Promise<void>;
}

export interface EventUser {
  username: string;
  /** Used bytes. */
  space: number;
}

/** Looks up a user's name and current used bytes at publish time. */
export type EventUserLookup = (userId: string) => Promise<EventUser | undefined>;

export interface EventBusLogger {
  warn(obj: object, msg?: string): void;
}

interface Pending {
  message: EventMessage;
  options: PublishOptions;
}

export class InProcessEventBus implements EventBus {
  private readonly listeners = new Map<string, Set<EventListener>>();
  /** Events waiting for delivery, per user; a user is present while a delivery runs. */
  private readonly queues = new Map<string, Pending[]>();
  private readonly deliveries = new Set<Promise<void>>();
  private log: EventBusLogger | undefined;
  private closed = false;

  constructor(private readonly lookup: EventUserLookup) {}

  start(options: { log?: EventBusLogger } = {}): void {
    if (options.log) this.log = options.log;
  }

  publish(userId: string, message: EventMessage, options: PublishOptions = {}): void {
    // Nobody listens on this node: skip the lookup entirely.
    if (this.closed || !this.listeners.get(userId)?.size) return;
    const queue = this.queues.get(userId);
    if (queue) {
      queue.push({ message, options });
      return;
    }
    this.queues.set(userId, [{ message, options }]);
    const delivery = this.deliver(userId).finally(() => this.deliveries.delete(delivery));
    this.deliveries.add(delivery);
  }

  subscribe(userId: string, listener: EventListener): () => void {
    let set = this.listeners.get(userId);
    if (!set) {
      set = new Set();
      this.listeners.set(userId, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(userId);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) this.listeners.delete(userId);
    };
  }

  /** Listeners of one user on this node (tests, metrics). */
  listenerCount(userId: string): number {
    return this.listeners.get(userId)?.size ?? 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.deliveries);
    this.listeners.clear();
  }

  /** Delivers a user's queued events in order; a burst shares one lookup of the user. */
  private async deliver(userId: string): Promise<void> {
    for (;;) {
      const queue = this.queues.get(userId);
      if (!queue || queue.length === 0) {
        this.queues.delete(userId);
        return;
      }
      const batch = queue.splice(0);
      let user: EventUser | undefined;
      try {
        user = await this.lookup(userId);
      } catch (err) {
        this.log?.warn(
          { err, userId, dropped: batch.length },
          'live events dropped: user lookup failed',
        );
        continue;
      }
      if (!user) continue;
      for (const { message, options } of batch) {
        const event: LiveEvent = {
          username: user.username,
          url: message.url,
          body: message.body,
          space: options.space ?? user.space,
          ...(message.fileId === undefined ? {} : { fileId: message.fileId }),
        };
        for (const listener of [...(this.listeners.get(userId) ?? [])]) {
          try {
            listener(event);
          } catch (err) {
            this.log?.warn({ err, userId, url: message.url }, 'live event listener failed');
          }
        }
      }
    }
  }
}
