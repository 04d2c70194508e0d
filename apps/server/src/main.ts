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

const started = performance.now();
const server = await createServer(config);
const address = await server.listen();
const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
server.app.log.info({ address, database: server.db.engine, startup_ms: Math.round(performance.now() - started) }, 'lfk is ready');
process.stderr.write(
  `\nlfk is listening on ${config.publicUrl} (${where}).\n` +
    (server.dashboard ? `Dashboard: ${config.publicUrl}/\n` : '') +
    `Sign up:  curl -s -X POST ${config.publicUrl}/v1/auth/signup -H 'content-type: application/json' \\\n` +
    `            -d '{"email":"you@example.com","password":"a long password"}'\n` +
    `API docs: ${config.publicUrl}/v1/openapi.json\n\n`,
);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(
      () => {
        server.app.log.info('lfk stopped');
        process.exit(0);
      },
      (error) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
