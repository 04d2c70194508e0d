import fastifyCookie from '@fastify/cookie';
import {
  ApiError,
  BACKGROUND_DEFAULTS,
  type BackgroundSettings,
  type BackgroundTask,
  createRuntime,
  DatabaseOutage,
  type EmailSenderSettings,
  malwareScannerFrom,
  NO_METRICS,
  type ObjectStorage,
  objectStorageFrom,
  type Services,
  TaskList,
  type WebhookWorkerSettings,
} from '@lfk/api';
import { type Database, openDatabase } from '@lfk/db';
import { maxHeaderSize } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import { type Config, objectStorageOf } from './config.ts';
import { resolveSecretKey } from './secret-key.ts';
import { isDashboardBuilt, registerDashboard } from './http/dashboard.ts';
import { registerEmailVerification } from './http/email-verification.ts';
import { registerAutoReplyStops } from './http/auto-reply-stops.ts';
import { registerPasswordResetPage } from './http/password-reset-page.ts';
import { loggedUrl } from './http/logged-url.ts';
import { clientErrorHandler, handleWhatNodeKeeps } from './http/client-errors.ts';
import { frameworkError, registerErrorHandling } from './http/errors.ts';
import { registerApiDocs } from './http/api-docs.ts';
import { registerPageHeaders } from './http/page-headers.ts';
import { registerHealth } from './http/health.ts';
import { buildOpenApi } from './http/openapi/document.ts';
import { ownOriginCheck } from './http/own-origin.ts';
import { requestContexts } from './http/request-context.ts';
import { requestIdFor } from './http/request-ids.ts';
import { registerRestBridge } from './http/rest-bridge.ts';
import { registerSecretScanning } from './http/secret-scanning.ts';
import { registerSubmissions } from './http/submissions.ts';
import { registerSubmissionExport } from './http/submission-export.ts';
import { registerFiles } from './http/files.ts';
import { spoolDirFor } from './spool.ts';
import { idleMemoryTrim } from './idle-memory-trim.ts';
import { registerTrpc } from './http/trpc.ts';

export const BODY_LIMIT = 1024 * 1024;

/** Secrets never reach a log line, whatever object a log call is handed. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.authorization',
  '*.cookie',
  '*.password',
  '*.key',
  '*.token',
  '*.session_token',
  '*.claim_token',
  '*.secret',
];

export interface LfkServer {
  app: FastifyInstance;
  db: Database;
  services: Services;
  config: Config;
  /** Whether the dashboard is served at `/` (its build was found). */
  dashboard: boolean;
  /** Everything the server runs beside requests, in start order; `close` stops them in reverse. */
  tasks: TaskList;
  /** Listens on the configured host and port; resolves to the address. */
  listen(): Promise<string>;
  /** Stops taking requests, finishes those in flight, writes what is pending, closes the database. */
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Where JSON log lines go (tests capture them); standard output by default. */
  logStream?: DestinationStream;
  /**
   * The log is read by a person (a terminal): one line per request, when it is answered, instead
   * of Fastify's two lines with the whole request and response objects.
   */
  readableLog?: boolean;
  /** An already open database (tests); otherwise opened from the config. */
  db?: Database;
  /** Timings of the email sender (tests shorten them). */
  outbox?: Partial<EmailSenderSettings>;
  /** Settings of the webhook worker (tests shorten its lock and poll, and give it few slots), and its requests' timeout. */
  webhooks?: Partial<WebhookWorkerSettings & { timeoutMs: number }>;
  /** An already open object storage (tests share one); otherwise opened from the config. */
  objectStorage?: ObjectStorage;
}

/** The email sender's settings, by their older name (tests import it from @lfk/server). */
export type OutboxSenderOptions = EmailSenderSettings;

/**
 * The one place the server's config and a test's options become background timings: the
 * defaults, with what config.ts reads from the environment and what a test shortens.
 */
export function backgroundSettings(config: Config, options: ServerOptions): BackgroundSettings {
  const { timeoutMs: _requestTimeout, ...webhooks } = options.webhooks ?? {};
  return {
    ...BACKGROUND_DEFAULTS,
    email: { ...BACKGROUND_DEFAULTS.email, ...options.outbox },
    webhooks: { ...BACKGROUND_DEFAULTS.webhooks, perWorkspace: config.webhooks.inFlightPerWorkspace, ...webhooks },
    keyUses: { flushMs: config.lastUsedFlushMs },
    keyLifecycle: { everyMs: config.keyLifecycleSweepMs },
    retention: { everyMs: config.retentionSweepMs },
  };
}

/** How often Node looks for connections past their headers or request timeout. */
const CONNECTIONS_CHECKED_EVERY_MS = 1000;

/**
 * Request logging for a log a person reads on a terminal: one line per answered request,
 * `GET /v1/forms/… 200 (3 ms)`, instead of Fastify's two with the whole request and response.
 */
class ReadableRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = `${request.method} ${loggedUrl(request.url)} ${reply.statusCode} (${reply.elapsedTime.toFixed(0)} ms)`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.info(line);
  }
}

export async function createServer(config: Config, options: ServerOptions = {}): Promise<LfkServer> {
  const db = options.db ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts }));
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    // Long path ids are answered by the route (404 of that resource), as tRPC answers them, not by
    // the router: no path segment that fits in a request Node reads is too long for it.
    routerOptions: { maxParamLength: maxHeaderSize },
    genReqId: (req) => requestIdFor(req.headers['x-request-id']),
    logger: {
      level: config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: {
        // A key pasted into a URL by mistake must not land in the logs either.
        req: (req) => ({ method: req.method, url: loggedUrl(req.url), remoteAddress: req.ip }),
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    frameworkErrors: frameworkError,
    clientErrorHandler,
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    connectionTimeout: config.timeouts.idleMs,
    http: {
      headersTimeout: config.timeouts.headersMs,
      // Node checks the two timeouts above this often (30 s by default, which would let them run late by as much).
      connectionsCheckingInterval: CONNECTIONS_CHECKED_EVERY_MS,
      // A request without Host is refused by lfk (in its own shape), not by Node (an empty 400).
      requireHostHeader: false,
    },
    // A request that reaches the router while the server stops is refused by lfk (below), not by Fastify.
    return503OnClosing: false,
    ...(options.readableLog ? { logController: new ReadableRequestLog() } : {}),
  });

  if (config.webhooks.allowPrivate) {
    app.log.warn('LFK_WEBHOOK_ALLOW_PRIVATE is on: webhooks may go to private addresses, localhost and http:// URLs (for development and tests only)');
  }

  // The database going away is logged once, not by every request and background run it fails.
  const outage = new DatabaseOutage(db, app.log);
  app.decorate('databaseOutage', outage);
  const log = outage.quiet(app.log);
  // prom-client costs about 12 MiB once loaded: only a server that serves metrics loads it.
  const metrics = config.metrics.enabled ? new (await import('./metrics.ts')).ServerMetrics(app, db, outage) : null;

  const secretKey = await resolveSecretKey(config);
  const storage = options.objectStorage ?? (await objectStorageFrom(objectStorageOf(config)));
  const spool = await spoolDirFor(config.dataDir);
  // Printed mail is how a person without SMTP follows a verification link: shown at any level but silent.
  const mailLog = config.logLevel === 'silent' ? app.log : app.log.child({}, { level: 'info' });
  const runtime = createRuntime({
    db,
    settings: {
      ...config,
      secretKey,
      webhooks: { ...config.webhooks, ...(options.webhooks?.timeoutMs ? { timeoutMs: options.webhooks.timeoutMs } : {}) },
      files: { ...config.fileLimits, ...spool, storage, scanner: config.clamdUrl
          ? malwareScannerFrom(config.clamdUrl, { connectTimeoutMs: config.dependencyDeadlines.connectMs, timeoutMs: config.dependencyDeadlines.totalMs })
          : null },
    },
    background: backgroundSettings(config, options),
    log,
    mailLog,
    metrics: metrics ?? NO_METRICS,
    outage,
    mail: { smtpUrl: config.smtpUrl, from: config.emailFrom },
  });
  const { services } = runtime;

  handleWhatNodeKeeps(app);

  let closing: Promise<void> | undefined;
  // While stopping, answers end their connection, so a keep-alive client cannot hold shutdown open.
  // Hooks on every request take a callback, not a promise: one fewer allocation and tick per answer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  registerPageHeaders(app);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // API answers are never cached: one of them carries a key that is shown once.
    reply.header('cache-control', 'no-store');
    // Shed load while draining: the balancer sends the retry to another replica.
    if (closing) return done(new ApiError('unavailable', { headers: { 'retry-after': '1' } }));
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return done(new ApiError('invalid_request', { message: 'An HTTP/1.1 request must have a Host header.' }));
    }
    done();
  });

  // JSON is the only body lfk takes here; anything else is a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    // No route, no body to read: an unknown route is a 404 whatever it was sent.
    if (request.routeOptions.url === undefined || text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('invalid json'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }), undefined);
    }
  });

  await app.register(fastifyCookie);
  registerErrorHandling(app);

  registerHealth(app, db, outage);
  const metricsServer = metrics && config.metrics.enabled ? metrics.serve(app, config.metrics.port) : null;
  const openApi = buildOpenApi(config.publicUrl);
  app.get('/v1/openapi.json', async () => openApi);
  await registerApiDocs(app);

  const contextFor = requestContexts(services, config.publicUrl, ownOriginCheck(config.publicUrl, config.publicUrlIsSet));
  registerRestBridge(app, contextFor);
  await registerSubmissions(app, services, contextFor, config.timeouts.requestMs);
  registerSubmissionExport(app, contextFor);
  registerFiles(app, contextFor);
  await registerEmailVerification(app, contextFor);
  await registerAutoReplyStops(app, contextFor);
  await registerPasswordResetPage(app, contextFor, `${config.publicUrl}/sign-in`);
  await registerSecretScanning(app, contextFor);
  await registerTrpc(app, contextFor);
  const dashboard = config.dashboardDir !== undefined && isDashboardBuilt(config.dashboardDir);
  if (dashboard) await registerDashboard(app, config.dashboardDir!);
  else if (config.dashboardDir !== undefined) {
    app.log.warn({ dir: config.dashboardDir }, 'no dashboard build there: serving the API only (npm start builds it)');
  }

  // Started first, the database closes last; requests stop first, before the work they may start.
  const tasks = new TaskList(
    [
      database(db),
      ...runtime.tasks,
      // The embedded server is the one meant for a small box.
      ...(db.engine === 'pglite' ? [idleMemoryTrim()] : []),
      { name: 'metrics server', start() {}, stop: async () => void (await metricsServer?.close()) },
      {
        name: 'requests',
        start() {},
        // Long polls answer at once, so closing does not wait them out.
        stop: () => {
          services.longPolls.stop();
          return app.close();
        },
      },
    ],
    app.log,
  );
  tasks.start();

  return {
    app,
    db,
    services,
    config,
    dashboard,
    tasks,
    async listen() {
      const address = await app.listen({ port: config.port, host: config.host });
      await metricsServer?.listen(config.host);
      return address;
    },
    close() {
      closing ??= tasks.stop();
      return closing;
    },
  };
}

/** The database as the first task: opened before the others start, closed after they all stop. */
function database(db: Database): BackgroundTask {
  return { name: 'database', start() {}, stop: () => db.close() };
}
