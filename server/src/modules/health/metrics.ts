import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { DbHandle } from '../../db/index.ts';
import type { EventStreams } from '../../events/event-streams.ts';

/** Upper bounds (seconds) of the request latency histogram's buckets. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** The job states counted, per type. */
const JOB_STATES = ['queued', 'running', 'failed'] as const;
/** At most this many users get a series of their used bytes: the ones using the most. */
export const TOP_USERS = 50;
/** The route label of requests no route matched (never their URL: labels stay bounded). */
const UNMATCHED = 'unmatched';

/** A label value as the text format wants it: backslash, double quote and newline escaped. */
export function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

const labels = (pairs: Record<string, string>): string => {
  const parts = Object.entries(pairs).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
};

/** Where the gauges are read from when scraped. */
export interface MetricSources {
  database: DbHandle;
  streams: EventStreams;
  jobCounts(
    states: Array<(typeof JOB_STATES)[number]>,
  ): Promise<Array<{ type: string; state: string; count: number }>>;
  mostUsed(limit: number): Promise<Array<{ id: string; usedBytes: number }>>;
  uploadSessions(): Promise<Array<{ state: string; count: number }>>;
  contentQueues(): Promise<Array<{ lane: string; state: string; count: number }>>;
}

interface Latency {
  method: string;
  route: string;
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * This node's metrics in Prometheus' text format, written by hand: HTTP requests counted as
 * Fastify routes them (by route pattern, never the raw URL), and gauges read when scraped.
 */
export class Metrics {
  private readonly requests = new Map<string, { labels: Record<string, string>; n: number }>();
  private readonly latency = new Map<string, Latency>();
  private bytesIn = 0;
  private bytesOut = 0;
  private readonly loopDelay: IntervalHistogram;

  constructor(private readonly sources: MetricSources) {
    this.loopDelay = monitorEventLoopDelay({ resolution: 20 });
  }

  /** Counts every answered request of `app` (and its plugins); stops measuring on close. */
  install(app: FastifyInstance): void {
    this.loopDelay.enable();
    app.addHook('onClose', async () => this.loopDelay.disable());
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? UNMATCHED;
      this.observe(
        request.method,
        route,
        reply.statusCode,
        reply.elapsedTime / 1000,
        Number(request.headers['content-length'] ?? 0),
        Number(reply.getHeader('content-length') ?? 0),
      );
    });
  }

  observe(
    method: string,
    route: string,
    status: number,
    seconds: number,
    bytesIn: number,
    bytesOut: number,
  ): void {
    const statusClass = `${Math.floor(status / 100)}xx`;
    const key = `${method} ${route} ${statusClass}`;
    const counted = this.requests.get(key);
    if (counted) counted.n += 1;
    else this.requests.set(key, { labels: { method, route, status_class: statusClass }, n: 1 });
    const lkey = `${method} ${route}`;
    let l = this.latency.get(lkey);
    if (!l) {
      l = { method, route, buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.latency.set(lkey, l);
    }
    LATENCY_BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) l.buckets[i]! += 1;
    });
    l.sum += seconds;
    l.count += 1;
    if (Number.isFinite(bytesIn) && bytesIn > 0) this.bytesIn += bytesIn;
    if (Number.isFinite(bytesOut) && bytesOut > 0) this.bytesOut += bytesOut;
  }

  /** Every metric, as a scrape reads it. */
  async render(): Promise<string> {
    const out: string[] = [];
    const head = (name: string, type: string, help: string) =>
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);

    head('nimbus_http_requests_total', 'counter', 'HTTP requests answered, by route and status.');
    for (const { labels: l, n } of this.requests.values())
      out.push(`nimbus_http_requests_total${labels(l)} ${n}`);

    head(
      'nimbus_http_request_duration_seconds',
      'histogram',
      'Time to answer a request, by route.',
    );
    for (const l of this.latency.values()) {
      const base = { method: l.method, route: l.route };
      LATENCY_BUCKETS.forEach((bound, i) =>
        out.push(
          `nimbus_http_request_duration_seconds_bucket${labels({ ...base, le: String(bound) })} ${l.buckets[i]}`,
        ),
      );
      out.push(
        `nimbus_http_request_duration_seconds_bucket${labels({ ...base, le: '+Inf' })} ${l.count}`,
        `nimbus_http_request_duration_seconds_sum${labels(base)} ${l.sum}`,
        `nimbus_http_request_duration_seconds_count${labels(base)} ${l.count}`,
      );
    }

    head(
      'nimbus_http_request_bytes_total',
      'counter',
      'Bytes of request bodies, as their Content-Length declared.',
    );
    out.push(`nimbus_http_request_bytes_total ${this.bytesIn}`);
    head(
      'nimbus_http_response_bytes_total',
      'counter',
      'Bytes of answers, as their Content-Length declared.',
    );
    out.push(`nimbus_http_response_bytes_total ${this.bytesOut}`);

    const memory = process.memoryUsage();
    head('nimbus_process_resident_memory_bytes', 'gauge', 'Resident memory of the process.');
    out.push(`nimbus_process_resident_memory_bytes ${memory.rss}`);
    head('nimbus_process_heap_used_bytes', 'gauge', 'JavaScript heap in use.');
    out.push(`nimbus_process_heap_used_bytes ${memory.heapUsed}`);
    head('nimbus_process_heap_total_bytes', 'gauge', 'JavaScript heap allocated.');
    out.push(`nimbus_process_heap_total_bytes ${memory.heapTotal}`);

    head(
      'nimbus_event_loop_delay_seconds',
      'gauge',
      'Event-loop delay since the start, by percentile (and the maximum).',
    );
    const ns = (v: number) => (Number.isFinite(v) ? v / 1e9 : 0);
    for (const p of [50, 90, 99])
      out.push(
        `nimbus_event_loop_delay_seconds${labels({ quantile: String(p / 100) })} ${ns(this.loopDelay.percentile(p))}`,
      );
    out.push(
      `nimbus_event_loop_delay_seconds${labels({ quantile: '1' })} ${ns(this.loopDelay.max)}`,
    );

    head('nimbus_event_streams_open', 'gauge', 'Event streams (SSE) open on this node.');
    out.push(`nimbus_event_streams_open ${this.sources.streams.total()}`);

    const pool = this.sources.database.pool?.();
    if (pool) {
      head('nimbus_db_pool_connections', 'gauge', 'Database pool connections, by state.');
      out.push(
        `nimbus_db_pool_connections${labels({ state: 'total' })} ${pool.total}`,
        `nimbus_db_pool_connections${labels({ state: 'idle' })} ${pool.idle}`,
        `nimbus_db_pool_connections${labels({ state: 'waiting' })} ${pool.waiting}`,
      );
    }

    const jobs = await this.sources.jobCounts([...JOB_STATES]);
    head('nimbus_jobs', 'gauge', 'Background jobs by type and state (queued, running, failed).');
    for (const row of jobs)
      out.push(`nimbus_jobs${labels({ type: row.type, state: row.state })} ${row.count}`);

    const uploads = await this.sources.uploadSessions();
    head('nimbus_upload_sessions', 'gauge', 'Upload sessions not done, by state.');
    for (const row of uploads)
      out.push(`nimbus_upload_sessions${labels({ state: row.state })} ${row.count}`);

    const lanes = await this.sources.contentQueues();
    head(
      'nimbus_content_queue',
      'gauge',
      'Documents waiting for (queued) or in (running) text reading and OCR, by lane.',
    );
    for (const row of lanes)
      out.push(`nimbus_content_queue${labels({ lane: row.lane, state: row.state })} ${row.count}`);

    const users = await this.sources.mostUsed(TOP_USERS);
    head(
      'nimbus_user_used_bytes',
      'gauge',
      `Bytes each user stores, for the ${TOP_USERS} users storing the most.`,
    );
    for (const u of users)
      out.push(`nimbus_user_used_bytes${labels({ user_id: u.id })} ${u.usedBytes}`);

    return `${out.join('\n')}\n`;
  }
}
