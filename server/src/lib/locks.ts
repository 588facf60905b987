import { Redis } from 'ioredis';
import { ErrorCode } from '@nimbus/contract';
import { AppError } from './errors.ts';
import { Gate } from './gate.ts';

/**
 * A lock per key: work under one key runs one at a time, work of other keys does not wait for
 * it. What a decision across requests needs (a user's tree changes one at a time, one decision
 * per upload or per video) when any node may take the request.
 */
export interface KeyedMutex {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** Where a message about a lock goes (the app's logger). */
export interface LockLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** The locks of one app: of this process, or of every node sharing one Redis. */
export interface Locks {
  /** The mutex named `name` (keys of different names never meet). */
  mutex(name: string): KeyedMutex;
  start(options?: { log?: LockLogger }): void;
  close(): Promise<void>;
}

/** Locks of this process only: one node, no Redis (a `Gate` of size 1 per name). */
export class LocalLocks implements Locks {
  mutex(): KeyedMutex {
    return new Gate();
  }
  start(): void {}
  async close(): Promise<void> {}
}

export interface RedisLockOptions {
  /**
   * How long a lock outlives its holder's last renewal: a killed node's locks are free again
   * after this. The holder renews every third of it while its work runs.
   */
  leaseMs?: number;
  /** How long a lock is wanted while Redis is not connected before the request is refused. */
  connectWaitMs?: number;
  /** The longest pause between two tries of a lock another node holds. */
  maxPollMs?: number;
}

/** Locks are keys `nimbus:lock:<name>:<key>`; the fencing counter is one key beside them. */
const LOCK_PREFIX = 'nimbus:lock:';
const FENCE_KEY = 'nimbus:lock-fence';

/**
 * Take the lock when free: the value is a fencing token, a number no try had before (every try
 * draws one), so a release or renewal by a holder whose lease ran out cannot touch the next
 * holder's lock. 0 when another holds it.
 */
const ACQUIRE = `
local token = redis.call('INCR', KEYS[2])
if redis.call('SET', KEYS[1], token, 'NX', 'PX', ARGV[1]) then return token end
return 0`;

/** Lengthen the lease, only while the lock is still this holder's. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** Free the lock, only while it is still this holder's. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

type LockCommands = Redis & {
  lockAcquire(key: string, fence: string, leaseMs: number): Promise<number>;
  lockRenew(key: string, token: string, leaseMs: number): Promise<number>;
  lockRelease(key: string, token: string): Promise<number>;
};

const redisUnreachable = (why: string) =>
  new AppError(
    ErrorCode.OFFLINE,
    `Redis cannot be reached, so the lock that keeps this change apart from others cannot be taken: ${why}`,
    undefined,
    503,
  );

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Locks shared by every node that points at one Redis. A lock is one key set only when absent
 * (atomically, by a Lua script) with a lease the holder renews while its work runs; a node that
 * dies stops renewing, and its locks are free once the lease runs out. Work waiting on this node
 * queues in order behind a local gate, so one waiter per key and node asks Redis, pausing a
 * little longer after each refusal. Across nodes a freed lock goes to whichever asks first.
 *
 * Without Redis a lock is refused (HTTP 503, code OFFLINE) once `connectWaitMs` has passed: a
 * node never decides alone what other nodes may be deciding at the same time.
 */
export class RedisLocks implements Locks {
  private readonly client: LockCommands;
  private readonly leaseMs: number;
  private readonly connectWaitMs: number;
  private readonly maxPollMs: number;
  private log: LockLogger | undefined;
  private closed = false;
  /** A warning about this outage was logged already. */
  private warned = false;

  constructor(url: string, options: RedisLockOptions = {}) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.connectWaitMs = options.connectWaitMs ?? 2_000;
    this.maxPollMs = options.maxPollMs ?? 100;
    // A command must not wait for a connection that is down: it fails at once, and the lock is
    // refused with the reason (no offline queue, no retry of a command sent).
    const client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      connectionName: 'nimbus-locks',
    });
    client.defineCommand('lockAcquire', { numberOfKeys: 2, lua: ACQUIRE });
    client.defineCommand('lockRenew', { numberOfKeys: 1, lua: RENEW });
    client.defineCommand('lockRelease', { numberOfKeys: 1, lua: RELEASE });
    client.on('error', (err: unknown) => {
      if (this.warned || this.closed) return;
      this.warned = true;
      this.log?.warn(
        { err },
        'Redis unreachable: changes that need a lock are refused until it is back',
      );
    });
    client.on('ready', () => {
      this.warned = false;
    });
    this.client = client as LockCommands;
  }

  /** The connection opens at once (locks are wanted before the app is ready); this names the log. */
  start(options: { log?: LockLogger } = {}): void {
    if (options.log) this.log = options.log;
  }

  /** Whether the connection is up (tests wait for it). */
  isConnected(): boolean {
    return this.client.status === 'ready';
  }

  mutex(name: string): KeyedMutex {
    const local = new Gate();
    return {
      run: <T>(key: string, work: () => Promise<T>) =>
        local.run(key, () => this.hold(`${LOCK_PREFIX}${name}:${key}`, work)),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.client.disconnect();
  }

  private async hold<T>(key: string, work: () => Promise<T>): Promise<T> {
    const token = await this.acquire(key);
    let lost = false;
    const renewal = setInterval(
      () => {
        // shutting down: the lease frees what is still held
        if (this.closed) return clearInterval(renewal);
        this.client.lockRenew(key, token, this.leaseMs).then(
          (renewed) => {
            if (renewed || lost) return;
            lost = true;
            this.log?.error({ key }, 'a lock ran out of its lease while its work went on');
          },
          (err: unknown) => this.log?.warn({ err, key }, 'a lock could not be renewed'),
        );
      },
      Math.max(1, Math.floor(this.leaseMs / 3)),
    );
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      // not freed (Redis gone): the lease frees it
      await this.client
        .lockRelease(key, token)
        .catch((err: unknown) =>
          this.log?.warn({ err, key }, 'a lock could not be freed; its lease will free it'),
        );
    }
  }

  /** Take the lock, waiting while another holds it; its fencing token. */
  private async acquire(key: string): Promise<string> {
    let wait = 2;
    for (;;) {
      await this.connected();
      let token: number;
      try {
        token = await this.client.lockAcquire(key, FENCE_KEY, this.leaseMs);
      } catch (err) {
        throw redisUnreachable(err instanceof Error ? err.message : String(err));
      }
      if (token) return String(token);
      await pause(wait);
      wait = Math.min(this.maxPollMs, wait * 2);
    }
  }

  /** Resolves when Redis is connected; refuses after `connectWaitMs` without it. */
  private connected(): Promise<void> {
    if (this.closed) return Promise.reject(redisUnreachable('the server is shutting down'));
    if (this.client.status === 'ready') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        if (err) reject(err);
        else resolve();
      };
      const onReady = () => done();
      const timer = setTimeout(
        () => done(redisUnreachable(`the connection is ${this.client.status}`)),
        this.connectWaitMs,
      );
      this.client.on('ready', onReady);
    });
  }
}

/** The locks the configuration calls for: shared through Redis, or of this process. */
export function createLocks(redisUrl: string | undefined): Locks {
  return redisUrl ? new RedisLocks(redisUrl) : new LocalLocks();
}
