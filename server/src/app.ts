import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { z } from 'zod';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import {
  ErrorCode,
  PRODUCT_VERSION,
  healthApi,
  describeIssues,
  httpStatusOf,
  type ErrorCodeValue,
} from '@nimbus/contract';
import type { Config } from './config.ts';
import { migrateToLatest, openDatabase, type DbHandle } from './db/index.ts';
import type { EarlyServer } from './early-server.ts';
import { installLegacyStatus } from './lib/legacy-status.ts';
import { AppError } from './lib/errors.ts';
import { installJsonDepthLimit } from './lib/json-depth.ts';
import { parseQueryString, withoutBlanks } from './lib/query-string.ts';
import { redactUrl } from './lib/redact-url.ts';
import { ResponseShapeError, responseSerializer } from './lib/response-shape.ts';
import { sandboxState } from './lib/sandbox.ts';
import { createServices, type Services } from './services.ts';
import { installAuth } from './modules/auth/auth.plugin.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { menusRoutes } from './modules/menus/menus.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { JobsRepo } from './jobs/jobs.repo.ts';
import { Metrics } from './modules/health/metrics.ts';
import { metricsRoute } from './modules/health/metrics.routes.ts';
import { eventsRoutes } from './events/events.routes.ts';
import { tasksRoutes } from './modules/tasks/tasks.routes.ts';
import { checkRoutes } from './modules/check/check.routes.ts';
import { filesRoutes } from './modules/files/files.routes.ts';
import { downloadRoutes } from './modules/files/download.routes.ts';
import { uploadRoutes } from './modules/upload/upload.routes.ts';
import { syncRoutes } from './modules/files/sync.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { tagsRoutes } from './modules/tags/tags.routes.ts';
import { shareRoutes } from './modules/share/share.routes.ts';
import { sharePublicRoutes } from './modules/share/share-public.routes.ts';
import { imagesRoutes } from './modules/images/images.routes.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import { previewRoutes } from './modules/preview/preview.routes.ts';
import { officeRoutes } from './modules/office/office.routes.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { markdownRoutes } from './modules/markdown/markdown.routes.ts';
import { auditRoutes, installAudit } from './modules/audit/audit.routes.ts';
import { JOB_UPLOAD_CLEANUP } from './modules/upload/upload.jobs.ts';
import { JOB_RETENTION } from './modules/retention/retention.jobs.ts';
import { JOB_CACHE_SWEEP } from './modules/cache/cache.jobs.ts';
import { registerWebdav } from './modules/webdav/webdav.plugin.ts';

export { redactUrl };

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    config: Config;
    /** Every route as registered, with its schema (tests walk them). */
    routeTable: RouteEntry[];
  }
}

/** What the log keeps of a request: its method, its URL with secrets masked, its address. */
const logSerializers = {
  req: (req: { method: string; url: string; ip?: string }) => ({
    method: req.method,
    url: redactUrl(req.url),
    remoteAddress: req.ip,
  }),
};

/** Headers that carry secrets, masked wherever a request's or answer's headers are logged. */
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'nimbus-token', 'share-token'];
const logRedact = {
  paths: ['', 'req.', 'res.', 'request.', 'reply.', 'response.'].flatMap((holder) =>
    SECRET_HEADERS.map((h) => `${holder}headers["${h}"]`),
  ),
  censor: '***',
};

/** The logger options: the caller's (tests pass a stream), always with secrets masked. */
function loggerOptions(
  config: Config,
  given: FastifyServerOptions['logger'],
): FastifyServerOptions['logger'] {
  if (given === false) return false;
  const base = typeof given === 'object' ? given : { level: config.logLevel };
  return {
    ...base,
    serializers: { ...base.serializers, ...logSerializers },
    redact: logRedact,
  };
}

export interface RouteEntry {
  method: string;
  url: string;
  schema: { response?: unknown; querystring?: unknown; body?: unknown } | undefined;
  config: unknown;
}

export interface BuildOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** An already open database (tests); otherwise one is opened from the config. */
  database?: DbHandle;
  /** The server that already listens and answers 503 while the app starts (early-server.ts). */
  early?: EarlyServer;
  /** Awaited just before the migrations run (tests hold the start there). */
  beforeMigrations?: () => Promise<void>;
}

/**
 * The longest path parameter the router passes on: as long as the whole request head Node takes
 * (16 KiB), so no parameter is cut by the router (an unknown address, 404) and each route's
 * schema answers one past its own limit with 422 naming the field.
 */
const MAX_PARAM_LENGTH = 16 * 1024;

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    // secrets never reach the log: tokens, codes and passwords in URLs and headers are masked
    logger: loggerOptions(config, options.logger),
    trustProxy: config.trustProxy,
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 10 * 1024 * 1024,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, querystringParser: parseQueryString },
    ...(options.early ? { serverFactory: options.early.serverFactory } : {}),
  }).withTypeProvider<ZodTypeProvider>();
  // an empty optional value of a query string is one not given (`sortProp=&sortOrder=`)
  app.setValidatorCompiler<z.ZodType>((route) => {
    const validate = validatorCompiler(route);
    return route.httpPart === 'querystring' ? (data) => validate(withoutBlanks(data)) : validate;
  });
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      routeTable.push({
        method,
        url: route.url,
        schema: route.schema,
        config: route.config,
      });
  });
  app.setSerializerCompiler(responseSerializer(config.checkResponses));

  const database =
    options.database ?? openDatabase({ ...config, log: app.log.child({ module: 'db' }) });
  options.early?.setPhase('migrating');
  await options.beforeMigrations?.();
  await migrateToLatest(database.db);
  // announced before anything is recovered: the other nodes leave this one's work alone
  await database.presence.start();
  options.early?.setPhase('starting');
  const services = createServices(database, config);
  await services.menus.ensureSeeded();
  await services.blobs.init();
  const recovered = await services.files.recover(
    (await services.users.owners()).map((o) => o.username),
  );
  await services.uploads.recover();
  if (recovered > 0)
    app.log.warn({ recovered }, 'rolled back file operations interrupted by a crash');
  app.decorate('services', services);
  app.decorate('config', config);
  app.addHook('onClose', async () => {
    if (!options.database) await database.close();
  });
  // Background work runs once the app is ready and stops (before the database closes) on close.
  app.addHook('onReady', async () => {
    const sandbox = sandboxState();
    if (!sandbox.sandboxed)
      app.log.warn(
        `programs that read uploaded files run without a sandbox: ${sandbox.reason ?? ''}`,
      );
    services.events.start({ log: app.log.child({ module: 'events' }) });
    services.locks.start({ log: app.log.child({ module: 'locks' }) });
    // a web node only queues jobs: the worker nodes sharing its database run them
    if (config.role !== 'web') services.jobs.start({ log: app.log.child({ module: 'jobs' }) });
    services.cache.start({ log: app.log.child({ module: 'cache' }) });
    // keyed by its kind: a job of the kind already waiting (another node's, or this one's last
    // round still running) stands for this one
    const schedule = (type: string, delayMs: number, what: string) =>
      void services.jobs
        .enqueue(type, {}, { userId: null, delayMs, key: type })
        .catch((err: unknown) => app.log.warn({ err }, `could not schedule ${what}`));
    // abandoned uploads are removed (and their space freed) a minute after boot, then every 6
    // hours; the caches lose what was made of content gone, and keep to their bound, a few
    // minutes after boot, then every 6 hours
    const cleanUp = () => {
      schedule(JOB_UPLOAD_CLEANUP, 60_000, 'the clean-up of abandoned uploads');
      schedule(JOB_CACHE_SWEEP, 3 * 60_000, 'the sweep of the caches');
      // old trash items and versions go (retention settings)
      schedule(JOB_RETENTION, 5 * 60_000, 'retention');
    };
    cleanUp();
    cleanupTimer = setInterval(cleanUp, 6 * 3600_000);
    cleanupTimer.unref();
    // several nodes may share PostgreSQL: what one that died left half done is undone by the
    // others, without waiting for its restart (SQLite has one process: its start does it)
    if (database.dialect === 'postgres') {
      let undoing = false;
      recoverTimer = setInterval(() => {
        if (undoing) return;
        undoing = true;
        services.files
          .recoverGone()
          .then((undone) => {
            if (undone > 0)
              app.log.warn({ undone }, 'rolled back file operations of a node that is gone');
          })
          .catch((err: unknown) => app.log.warn({ err }, 'could not roll back a gone node’s work'))
          .finally(() => (undoing = false));
      }, RECOVER_GONE_EVERY_MS);
      recoverTimer.unref();
    }
    // with an update feed configured: whether a newer Nimbus exists, now and once a day
    services.updates.start({ log: app.log.child({ module: 'updates' }) });
    // the search index mends itself in the background (it follows the tree from the start)
    await services.searchIndex.start({ log: app.log.child({ module: 'search' }) });
  });
  let cleanupTimer: NodeJS.Timeout | undefined;
  let recoverTimer: NodeJS.Timeout | undefined;
  app.addHook('onClose', async () => {
    clearInterval(cleanupTimer);
    clearInterval(recoverTimer);
    await services.updates.stop();
    await services.searchIndex.stop();
    await services.jobs.stop();
    await services.events.close();
    await services.locks.close();
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status ?? httpStatusOf[error.code] ?? 400).send({
        code: error.code,
        message: error.message,
        ...(error.details ? { data: error.details } : {}),
      });
    }
    const err = error as {
      validation?: Array<{ message?: string; instancePath?: string }>;
      statusCode?: number;
      code?: string;
      message: string;
    };
    if (err.validation) {
      // each field by name with what was wrong with it: `chunkSize: required, a whole number`
      const message =
        describeIssues(
          err.validation.map((v) => ({
            path: (v.instancePath ?? '').split('/').filter(Boolean),
            message: v.message ?? 'not accepted',
          })),
        ) || 'Invalid parameters';
      return reply.status(422).send({ code: ErrorCode.BAD_PARAMETER, message });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // an oversized request or chunk is the request's fault, not a full drive (code 20 is
      // only ever a quota's answer)
      const code: ErrorCodeValue =
        err.statusCode === 415 ? ErrorCode.UNRECOGNIZED_FILE : ErrorCode.BAD_PARAMETER;
      const message =
        err.statusCode === 413 ? 'The request is larger than the server accepts' : err.message;
      return reply.status(err.statusCode).send({ code, message });
    }
    request.log.error({ err: error }, 'unexpected error');
    // only raised while answers are checked (tests): say what did not fit
    if (error instanceof ResponseShapeError)
      return reply.status(500).send({ code: ErrorCode.ERROR, message: error.message });
    return reply.status(500).send({ code: ErrorCode.ERROR, message: 'Internal server error' });
  });

  if (config.role === 'worker') answerOnlyProbes(app);
  addSecurityHeaders(app);
  if (config.legacyStatus) installLegacyStatus(app);
  // every request Fastify routes is counted (WebDAV leaves before routing: not counted)
  const jobsRepo = new JobsRepo(database.db);
  const metrics = new Metrics({
    database,
    streams: services.eventStreams,
    jobCounts: (states) => jobsRepo.countsByTypeAndState(states),
    mostUsed: (limit) => services.users.mostUsed(limit),
    uploadSessions: () => services.uploads.sessionCounts(),
    contentQueues: () => services.searchIndex.lanes.queueCounts(),
  });
  metrics.install(app);
  metricsRoute(app, metrics);
  // WebDAV leaves Fastify before routing and body parsing: its methods and bodies are its own
  registerWebdav(app);
  await app.register(cookie);
  installJsonDepthLimit(app);
  // form bodies, as the original client sends for some calls (API-NOTES §1.0)
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, parseQueryString(String(body)));
    },
  );
  await app.register(swagger, {
    openapi: { info: { title: 'Nimbus API', version: PRODUCT_VERSION } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      installAuth(api);
      installAudit(api);
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(usersRoutes);
      await api.register(menusRoutes);
      await api.register(settingsRoutes);
      await api.register(eventsRoutes);
      await api.register(tasksRoutes);
      await api.register(checkRoutes);
      await api.register(filesRoutes);
      await api.register(downloadRoutes);
      await api.register(uploadRoutes);
      await api.register(syncRoutes);
      await api.register(searchRoutes);
      await api.register(tagsRoutes);
      await api.register(shareRoutes);
      await api.register(sharePublicRoutes);
      await api.register(imagesRoutes);
      await api.register(mediaRoutes);
      await api.register(previewRoutes);
      await api.register(officeRoutes);
      await api.register(historyRoutes);
      await api.register(markdownRoutes);
      await api.register(auditRoutes);
    },
    { prefix: '/api' },
  );

  await registerWeb(app, config);
  return app;
}

/**
 * The web app's policy: its own scripts only (WebAssembly for the upload hasher), antd's inline
 * styles, images also from data:, blob: and other sites (a drive logo may be a URL), no plugins,
 * no other base, forms posted to itself only, and no framing by anyone.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The bundled PDF and EPUB viewer pages (API-NOTES §1.12): framed by the app itself, reading
 * the drive's own addresses only; a book's pages come as blob: documents, sandboxed without
 * scripts (and this policy, which they inherit, allows none of their own either).
 */
export const VIEWER_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline' blob:",
  "img-src 'self' data: blob:",
  "font-src 'self' data: blob:",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * The OnlyOffice editor page: the viewer pages' policy, and the configured document server's
 * script and editor frame (none while no server is configured).
 */
export function onlyOfficePageCsp(documentServer: string | null): string {
  const extra = documentServer ? ` ${documentServer}` : '';
  return VIEWER_PAGE_CSP.replace("script-src 'self'", `script-src 'self'${extra}`)
    .replace("frame-src 'self' blob:", `frame-src 'self'${extra}`)
    .replace("connect-src 'self'", `connect-src 'self'${extra}`);
}

const isViewerPage = (url: string) =>
  url.startsWith('/pdf.js/web/') || url.startsWith('/resource/epubjs/');

/** How often a node looks for the half-done work of nodes that are gone (PostgreSQL). */
const RECOVER_GONE_EVERY_MS = 10_000;

/** What a worker node still answers: whether it lives, whether it is ready, its metrics. */
const PROBES = new Set([`/api${healthApi.health.path}`, `/api${healthApi.ready.path}`, '/metrics']);

/**
 * A worker node (`NIMBUS_ROLE=worker`) runs background jobs and serves no one: every request but
 * the probes of whoever runs it is refused, WebDAV and the web app included, so a load balancer
 * that reaches it by mistake moves on to a web node.
 */
function answerOnlyProbes(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (PROBES.has(request.url.split('?')[0]!)) return;
    return reply.status(503).send({
      code: ErrorCode.OFFLINE,
      message:
        'This node runs background jobs only (NIMBUS_ROLE=worker): send requests to a web node',
    });
  });
}

/**
 * Security headers on every response. API answers (stored bytes among them) run nothing and
 * are framed only by the app itself (its hidden download frame); the web app gets its strict
 * policy and is never framed. No response sends a Referer onwards: addresses carry tokens.
 */
function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const url = request.url;
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) {
      reply.header('x-frame-options', 'SAMEORIGIN');
      // the OpenAPI page is a page of its own, with its own scripts
      if (!url.startsWith('/api/docs'))
        reply.header('content-security-policy', "sandbox; default-src 'none'");
    } else if (url.startsWith('/resource/onlyoffice/')) {
      reply.header('x-frame-options', 'SAMEORIGIN');
      const server = await app.services.office.documentServerOrigin();
      reply.header('content-security-policy', onlyOfficePageCsp(server));
    } else if (isViewerPage(url)) {
      reply.header('x-frame-options', 'SAMEORIGIN');
      reply.header('content-security-policy', VIEWER_PAGE_CSP);
    } else {
      reply.header('x-frame-options', 'DENY');
      reply.header('content-security-policy', WEB_APP_CSP);
    }
  });
}

/** The built web app with an SPA fallback; unknown API paths stay JSON 404s. */
async function registerWeb(app: FastifyInstance, config: Config): Promise<void> {
  const index = path.join(config.webDir, 'index.html');
  const hasWeb = fs.existsSync(index);
  if (hasWeb) {
    // wildcard: files of a rebuild made while the server runs are served too
    const hashed = path.join(config.webDir, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: config.webDir,
      wildcard: true,
      index: false,
      // the build writes brotli and gzip copies beside each file; the request's
      // Accept-Encoding picks one
      preCompressed: true,
      // a file under assets/ has its content's hash in its name: it never changes; the rest
      // (index.html, the viewers' libraries) is asked again each time, answered 304 if unchanged
      setHeaders: (reply, file) => {
        reply.header(
          'cache-control',
          file.startsWith(hashed) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    // the app's own root: the static handler would refuse it as a folder
    app.get('/', (_request, reply) =>
      reply.header('cache-control', 'no-cache').sendFile('index.html'),
    );
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url.startsWith('/api/') || url === '/api' || request.method !== 'GET' || !hasWeb) {
      return reply.status(404).send({ code: ErrorCode.NOT_FOUND, message: 'Not found' });
    }
    if (path.extname(url) && !url.startsWith('/s/')) {
      return reply.status(404).send({ code: ErrorCode.NOT_FOUND, message: 'Not found' });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
