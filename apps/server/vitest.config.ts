import { defineConfig } from 'vitest/config';
import { fastAndSlow, sourceConditions } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceConditions,
  test: fastAndSlow([
    // Spawn the real server process.
    'test/process/npm-start.test.ts',
    'test/process/server.test.ts',
    'test/process/durability.test.ts',
    // Runs the curl examples of the README and docs/reference/api.md in bash, one process per statement.
    'test/docs/readme-examples.test.ts',
    // Waits out the database's connect and statement timeouts.
    'test/dependencies/database-outages.test.ts',
    'test/webhooks/crash.test.ts',
    'test/process/background-write-failures.test.ts',
    'test/key-cache/other-processes.test.ts',
    'test/key-cache/lost-notification-connection.test.ts',
    // Wait out real time: a client trickling bytes, polls that must not send again.
    'test/connections/slow-clients.test.ts',
    'test/email/resends-and-retries.test.ts',
    'test/inbox/captcha-timeout.test.ts',
    // Waits out object storage's and clamd's deadlines (3 s each) behind hops that never answer.
    'test/dependencies/dependency-deadlines.test.ts',
  ]),
});
