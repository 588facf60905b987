import http from 'node:http';
import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import { ErrorCode } from '@nimbus/contract';

/** What a server that listens but does not serve yet is doing. */
export type StartupPhase = 'migrating' | 'starting';

const PHASE_MESSAGES: Record<StartupPhase, string> = {
  migrating: 'Nimbus is starting: the database is being migrated. Try again shortly.',
  starting: 'Nimbus is starting. Try again shortly.',
};

/**
 * The HTTP server, listening before the app is built: while the database is migrated and the
 * app starts, every request (readiness and liveness included) is answered 503 naming the phase,
 * so a load balancer or an orchestrator sees "migrating" rather than a refused connection.
 * `serverFactory` gives the same server to Fastify; `handOver` makes it serve the app.
 */
export class EarlyServer {
  readonly server: http.Server;
  private phase: StartupPhase = 'migrating';
  private handler: http.RequestListener;

  constructor() {
    this.handler = (req, res) => this.answerStarting(req, res);
    this.server = http.createServer((req, res) => this.handler(req, res));
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as { port: number }).port);
      });
    });
  }

  setPhase(phase: StartupPhase): void {
    this.phase = phase;
  }

  /** Fastify's server: this one, with the timeouts Fastify would have given its own. */
  readonly serverFactory: FastifyServerFactory = (handler, given) => {
    this.pending = handler;
    const options = given as {
      keepAliveTimeout?: number;
      requestTimeout?: number;
      connectionTimeout?: number;
    };
    if (options.keepAliveTimeout) this.server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) this.server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout) this.server.setTimeout(options.connectionTimeout);
    return this.server;
  };
  private pending: http.RequestListener | undefined;

  /** The app is built: once it is ready, requests go to it. */
  async handOver(app: FastifyInstance): Promise<void> {
    if (!this.pending) throw new Error('the app was not built on this server (serverFactory)');
    await app.ready();
    this.handler = this.pending;
  }

  /** Closes the app (when given) and then the server, its open connections included. */
  async close(app?: FastifyInstance): Promise<void> {
    if (app) await app.close();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private answerStarting(req: http.IncomingMessage, res: http.ServerResponse): void {
    const ready = req.url?.split('?')[0] === '/api/public/ready';
    const body = {
      code: ErrorCode.OFFLINE,
      message: PHASE_MESSAGES[this.phase],
      ...(ready ? { data: { notReady: [this.phase] } } : {}),
    };
    // the request's body is not read: the connection is not kept for another request
    res.writeHead(503, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'retry-after': '5',
      connection: 'close',
    });
    res.end(JSON.stringify(body));
  }
}
