/** The server main.ts starts: its configuration, its log, the server itself, the signals that stop it, and listening. */
import { flushCompileCache } from 'node:module';
import pino from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { createServer } from './server.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`lfk: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

// The log's reader may go first: `npm start | tee lfk.log` stopped with Ctrl-C signals tee too,
// and every later write to the closed pipe fails with EPIPE. A lost log line must not stop the
// shutdown (an unhandled write error used to leave the server half-stopped, deaf to signals).
const dropWhenClosed = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
};
// On a terminal, lines a person reads; anywhere else (a file, a collector), JSON lines.
// pino-pretty costs about 10 MiB once loaded: only a server that prints for a person loads it.
const readableLog = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
const logStream = readableLog
  ? (await import('pino-pretty')).default({
      destination: 1,
      sync: true,
      colorize: process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId',
      // The message says it all (a request's line, an email's text); errors are still shown whole.
      hideObject: true,
    })
  : pino.destination({ dest: 1, sync: true });
logStream.on('error', dropWhenClosed);
process.stdout.on('error', dropWhenClosed);
process.stderr.on('error', dropWhenClosed);

const started = performance.now();
const server = await createServer(config, { logStream, readableLog });

// Before listening, and so before `lfk is ready` is said: a signal sent on seeing it must find the
// handler in place (else Node's default ends the process without a shutdown).
let stopping = false;
function stop(exitCode: 0 | 1): void {
  // Ctrl-C on `npm start` reaches the server twice (from the terminal, and forwarded by npm):
  // the second must not cut the shutdown short.
  if (stopping) return;
  stopping = true;
  server.close().then(
    () => {
      server.app.log.info('lfk stopped');
      process.exit(exitCode);
    },
    (error) => {
      server.app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (!stopping) server.app.log.info({ signal }, 'shutting down');
    stop(0);
  });
}
// An embedded database that stopped never comes back: a server left running would answer 503s
// forever, where a stopped one is restarted by whatever supervises it.
void server.db.lost.then((error) => {
  server.app.log.fatal({ err: error }, 'the embedded database stopped; shutting down');
  stop(1);
});

let address: string;
try {
  address = await server.listen();
} catch (error) {
  // The one start-up failure people cause by hand: a second server on the same port.
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  const port = (error as { port?: number }).port ?? config.port;
  const setting = port === config.port ? 'PORT' : 'LFK_METRICS';
  process.stderr.write(`lfk: ${config.host}:${port} is already in use (another lfk?). Stop it, or choose another port with ${setting}.\n`);
  await server.close();
  process.exit(1);
}
// Written now rather than at exit: a server stopped by SIGKILL would never write it.
flushCompileCache();
const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
server.app.log.info({ address, database: server.db.engine, startup_ms: Math.round(performance.now() - started) }, 'lfk is ready');
process.stderr.write(
  `\nlfk is listening on ${config.publicUrl} (${where}).\n` +
    (server.dashboard ? `Dashboard: ${config.publicUrl}/\n` : '') +
    `Sign up:  curl -s -X POST ${config.publicUrl}/v1/auth/signup -H 'content-type: application/json' \\\n` +
    `            -d '{"email":"you@example.com","password":"a long password"}'\n` +
    `API docs: ${config.publicUrl}/v1/openapi.json\n` +
    (config.metrics.enabled ? `Metrics:  http://${config.host}:${config.metrics.port ?? config.port}/metrics\n` : '') +
    '\n',
);
