import fastifyCookie from '@fastify/cookie';
import {
  ApiKeyCache,
  deleteExpiredIdempotencyRecords,
  followKeyRevocations,
  LastUsedRecorder,
  RateLimits,
  redactSecrets,
  type Services,
} from '@lfk/api';
import { type Database, openDatabase } from '@lfk/db';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import { OutboxSender, type OutboxSenderOptions } from './email/outbox-sender.ts';
import { logTransport, smtpTransport } from './email/transports.ts';
import { registerEmailVerification } from './http/email-verification.ts';
import { frameworkError, registerErrorHandling } from './http/errors.ts';
import { buildOpenApi } from './http/openapi.ts';
import { ownOriginCheck } from './http/own-origin.ts';
import { requestContexts } from './http/request-context.ts';
import { requestIdFor } from './http/request-ids.ts';
import { registerRestBridge } from './http/rest-bridge.ts';
import { registerSubmissions } from './http/submissions.ts';
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
];

export interface LfkServer {
  app: FastifyInstance;
  db: Database;
  services: Services;
  config: Config;
  /** Listens on the configured host and port; resolves to the address. */
  listen(): Promise<string>;
  /** Stops taking requests, finishes those in flight, writes what is pending, closes the database. */
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Where JSON log lines go (tests capture them); standard output by default. */
  logStream?: DestinationStream;
  /** An already open database (tests); otherwise opened from the config. */
  db?: Database;
  /** Timings of the email sender (tests shorten them). */
  outbox?: Partial<OutboxSenderOptions>;
}

/** Expired idempotency records are swept this often. */
const SWEEP_EVERY_MS = 10 * 60_000;

export async function createServer(config: Config, options: ServerOptions = {}): Promise<LfkServer> {
  const db = options.db ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const lastUsed = new LastUsedRecorder(db, config.lastUsedFlushMs);
  let sender: OutboxSender | undefined;
  const services: Services = {
    db,
    apiKeyCache: new ApiKeyCache(config.apiKeyCache),
    lastUsed,
    rateLimits: new RateLimits(config.rateLimits),
    allowSignup: config.allowSignup,
    publicUrl: config.publicUrl,
    verifyResendIntervalMs: config.verifyResendIntervalMs,
    wakeMailer: () => sender?.wake(),
  };

  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    // Long path ids are answered by the route (404 of that resource), not by the router (414).
    routerOptions: { maxParamLength: 8192 },
    genReqId: (req) => requestIdFor(req.headers['x-request-id']),
    logger: {
      level: config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: {
        // A key pasted into a URL by mistake must not land in the logs either.
        req: (req) => ({ method: req.method, url: redactSecrets(req.url), remoteAddress: req.ip }),
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // The union confuses fastify's overloads; each member is a value fastify accepts.
    trustProxy: config.trustProxy as string[],
    frameworkErrors: frameworkError,
  });

  let closing: Promise<void> | undefined;
  // While stopping, answers end their connection, so a keep-alive client cannot hold shutdown open.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // API answers are never cached: one of them carries a key that is shown once.
    reply.header('cache-control', 'no-store');
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

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ready = await db.isReady();
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', database: db.engine });
  });
  const openApi = buildOpenApi(config.publicUrl);
  app.get('/v1/openapi.json', async () => openApi);

  const contextFor = requestContexts(services, config.publicUrl, ownOriginCheck(config.publicUrl, config.publicUrlIsSet));
  registerRestBridge(app, contextFor);
  await registerSubmissions(app, services, contextFor);
  await registerEmailVerification(app, contextFor);
  await registerTrpc(app, contextFor);

  const transport = config.smtpUrl ? smtpTransport(config.smtpUrl, config.emailFrom) : logTransport(app.log);
  sender = new OutboxSender(db, transport, app.log, options.outbox);
  sender.start();
  lastUsed.start();
  const revocations = followKeyRevocations(db, services.apiKeyCache, app.log);
  const sweeper = setInterval(() => {
    deleteExpiredIdempotencyRecords(db.fork()).catch((err) => app.log.warn({ err }, 'could not sweep idempotency records'));
  }, SWEEP_EVERY_MS);
  sweeper.unref();

  return {
    app,
    db,
    services,
    config,
    async listen() {
      return app.listen({ port: config.port, host: config.host });
    },
    close() {
      closing ??= (async () => {
        await app.close();
        clearInterval(sweeper);
        await sender?.stop();
        await lastUsed.stop();
        await revocations?.close();
        await db.close();
      })();
      return closing;
    },
  };
}
