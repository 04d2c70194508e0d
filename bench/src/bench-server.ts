/**
 * The server under test, in its own process: lfk's `createServer` from the environment, exactly as
 * `npm start` builds it, plus the benchmark's baselines and query counter.
 */
import type { Principal } from '@lfk/api';
import { createServer, loadConfig } from '@lfk/server';
import { countQueries, registerBaselines } from './baselines.ts';
import type { FromServer, ToServer } from './protocol.ts';

const send = (message: FromServer) => process.send!(message);

let principal: Principal = { kind: 'anonymous' };
const server = await createServer(loadConfig(process.env));
registerBaselines(server, () => principal);
const queries = countQueries(server);
const url = await server.listen();

process.on('message', (message: ToServer) => {
  if (message.type === 'principal') {
    principal = { kind: 'api_key', keyId: message.keyId, workspaceId: message.workspaceId };
  } else if (message.type === 'queries') {
    send({ type: 'queries', count: queries() });
  } else if (message.type === 'verify-notify') {
    server.db
      .fork()
      .getConnection()
      .execute('update forms set notify_email_verified = true where id = ?', [message.formId])
      .then(() => send({ type: 'verified' }));
  }
});
process.on('SIGTERM', () => {
  server.close().then(() => process.exit(0));
});
send({ type: 'ready', url });
