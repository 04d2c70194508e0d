/**
 * The server under test, in its own process: lfk's `createServer` from the environment, exactly as
 * `npm start` builds it, plus the benchmark's baselines and query counter.
 */
import { type Principal, RateLimits } from '@lfk/api';
import { createServer, loadConfig } from '@lfk/server';
import { countQueries, registerBaselines } from './baselines.ts';
import { answerProfiling } from './profiler.ts';
import type { FromServer, ToServer } from './protocol.ts';

const send = (message: FromServer) => process.send!(message);

let principal: Principal = { kind: 'anonymous' };
const server = await createServer(loadConfig(process.env));
registerBaselines(server, () => principal);
const queries = countQueries(server);
const url = await server.listen();
const benchLimits = server.services.rateLimits;
const countingLimits = new RateLimits({ ...server.config.rateLimits, key_failures: { capacity: 1_000_000_000, windowMs: 60_000 } }, server.db);

process.on('message', (message: ToServer) => {
  if (answerProfiling(message, send)) return;
  if (message.type === 'principal') {
    principal = { kind: 'api_key', keyId: message.keyId, workspaceId: message.workspaceId };
  } else if (message.type === 'queries') {
    send({ type: 'queries', count: queries() });
  } else if (message.type === 'verify-notify') {
    server.db
      .fork()
      .getConnection()
      .execute(
        "update forms set notify_emails = (select jsonb_agg(jsonb_set(entry, '{verified}', 'true')) " +
          'from jsonb_array_elements(notify_emails) as listed(entry)) where id = ?',
        [message.formId],
      )
      .then(() => send({ type: 'verified' }));
  } else if (message.type === 'confirm-account') {
    server.db
      .fork()
      .getConnection()
      .execute('update users set email_verified_at = now() where email = ?', [message.email])
      .then(() => send({ type: 'verified' }));
  } else if (message.type === 'heap') {
    (globalThis as { gc?: () => void }).gc?.();
    send({ type: 'heap', bytes: process.memoryUsage().heapUsed, resources: process.getActiveResourcesInfo().length });
  } else if (message.type === 'collect') {
    (globalThis as { gc?: (options: object) => void }).gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    send({ type: 'collected' });
  } else if (message.type === 'refusals-asked') {
    server.services.rateLimits = message.on ? countingLimits : benchLimits;
    if (message.on) server.services.apiKeyCache.suspend();
    else server.services.apiKeyCache.resume();
    send({ type: 'refusals-asked' });
  } else if (message.type === 'seed-submissions') {
    // Realistic rows (an address, a sentence of text), written in one statement: the scenario
    // measures the export, not 100 000 submissions through the API.
    server.db
      .fork()
      .getConnection()
      .execute(
        "insert into submissions (id, form_id, data, source, status, created_at) select 'sub_' || lpad(to_hex(?::bigint + g), 26, '0'), ?, " +
          "json_build_object('email', 'person' || g || '@example.com', 'message', coalesce(repeat('x', ?::int), " +
          "'Hello, I would like to know more about your plans for a team of ' || g || ' people, thank you.')), " +
          "'browser', 'ok', now() - (? - g) * interval '1 second' from generate_series(1, ?) g",
        // Ids of the right shape, unique across calls, in creation order.
        [Date.now() * 1_000_000, message.formId, message.messageBytes ?? null, message.count, message.count],
      )
      .then(() => send({ type: 'seeded' }));
  }
});
process.on('SIGTERM', () => {
  server.close().then(() => process.exit(0));
});
send({ type: 'ready', url });
