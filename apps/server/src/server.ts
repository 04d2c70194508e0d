import {
  type BackgroundTask,
  createRuntime,
  DatabaseOutage,
  type EmailSenderSettings,
  type FileResources,
  malwareScannerFrom,
  NO_METRICS,
  type ObjectStorage,
  objectStorageFrom,
  type Services,
  type TaskList,
} from '@lfk/api';
import { type Database, openDatabase } from '@lfk/db';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { type Config, objectStorageOf } from './config.ts';
import { fastifyApp } from './http/fastify-app.ts';
import { registerRequestHooks } from './http/request-hooks.ts';
import { registerRoutes } from './http/routes.ts';
import { idleMemoryTrim } from './idle-memory-trim.ts';
import { resolveSecretKey } from './secret-key.ts';
import { spoolDirFor } from './spool.ts';

export { BODY_LIMIT } from './http/fastify-app.ts';

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
  /** The log is read by a person (a terminal): one line per request, when it is answered. */
  readableLog?: boolean;
  /** An already open database (tests); otherwise opened from the config. */
  db?: Database;
  /** An already open object storage (tests share one); otherwise opened from the config. */
  objectStorage?: ObjectStorage;
}

/** The email sender's settings, by their older name (tests import it from @lfk/server). */
export type OutboxSenderOptions = EmailSenderSettings;

export async function createServer(config: Config, options: ServerOptions = {}): Promise<LfkServer> {
  const db = options.db ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts }));
  const app = fastifyApp(config, { stream: options.logStream, readable: options.readableLog });
  if (config.webhooks.allowPrivate) {
    app.log.warn('LFK_WEBHOOK_ALLOW_PRIVATE is on: webhooks may go to private addresses, localhost and http:// URLs (for development and tests only)');
  }
  // The database going away is logged once, not by every request and background run it fails.
  const outage = new DatabaseOutage(db, app.log);
  app.decorate('databaseOutage', outage);
  // prom-client costs about 12 MiB once loaded: only a server that serves metrics loads it.
  const metrics = config.metrics.enabled ? new (await import('./metrics.ts')).ServerMetrics(app, db, outage) : null;
  // Printed mail is how a person without SMTP follows a verification link: shown at any level but silent.
  const mailLog = config.logLevel === 'silent' ? app.log : app.log.child({}, { level: 'info' });
  let closing: Promise<void> | undefined;
  const { services, tasks } = createRuntime({
    db,
    settings: config,
    secretKey: await resolveSecretKey(config),
    files: await fileResources(config, options),
    log: outage.quiet(app.log),
    mailLog,
    metrics: metrics ?? NO_METRICS,
    // Started first, the database closes last; requests stop first, before the work they may start.
    first: [database(db), outage],
    last: [
      // The embedded server is the one meant for a small box.
      ...(db.engine === 'pglite' ? [idleMemoryTrim()] : []),
      { name: 'metrics server', start() {}, stop: async () => void (await metricsServer?.close()) },
      // Long polls answer at once, so closing does not wait them out.
      {
        name: 'requests',
        start() {},
        stop() {
          services.longPolls.stop();
          return app.close();
        },
      },
    ],
  });
  await registerRequestHooks(app, () => closing !== undefined);
  const metricsServer = metrics && config.metrics.enabled ? metrics.serve(app, config.metrics.port) : null;
  const dashboard = await registerRoutes(app, config, services, db, outage);
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

/** Files' storage (checked at start), the malware scanner if one is set, and the upload spool. */
async function fileResources(config: Config, options: ServerOptions): Promise<FileResources> {
  const deadlines = { connectMs: config.dependencyDeadlines.connectMs, timeoutMs: config.dependencyDeadlines.totalMs };
  return {
    storage: options.objectStorage ?? (await objectStorageFrom(objectStorageOf(config))),
    scanner: config.clamdUrl ? malwareScannerFrom(config.clamdUrl, deadlines) : null,
    spool: await spoolDirFor(config.dataDir),
  };
}

/** The database as the first task: opened before the others start, closed after they all stop. */
function database(db: Database): BackgroundTask {
  return { name: 'database', start() {}, stop: () => db.close() };
}
