/**
 * The email sender works in its own async context. A request that queues mail wakes it; the
 * sending, and every poll after it, must not run as part of that request (anything tracing requests
 * through async context would count the sender's statements as the request's, and the request's
 * context would stay alive for as long as the server runs).
 *
 * Beside the sender, on the shared database with no server: a server's own sender, woken at its
 * start, could take the test's email first (it did once in CI, on PostgreSQL under load).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { OutboxEmail } from '@lfk/db';
import { until } from '@lfk/testing';
import { describe, expect, it } from 'vitest';
import { emailSender } from '../src/infrastructure/email-sender.ts';
import type { MailTransport } from '../src/infrastructure/mail-transports.ts';
import { testServices, testSettings } from './world.ts';

const QUIET_LOG = { debug() {}, info() {}, warn() {}, error() {} };
const address = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;

describe('the email sender woken by a request', () => {
  it('sends outside the request that woke it, and keeps polling outside it', async () => {
    const services = await testServices();
    const request = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const transport: MailTransport = {
      async send() {
        seen.push(request.getStore());
      },
      close() {},
    };
    const sender = emailSender(services.db, services.secretBox, transport, QUIET_LOG, { ...testSettings().outbox, pollMs: 20 });
    const em = services.db.fork();
    em.getRepository(OutboxEmail).enqueue({ kind: 'test', to: address('context'), subject: 'One', body: 'one' });
    await em.flush();
    try {
      // start() wakes the sender at once, as a request that queued mail does; here inside a request's context.
      request.run('the request', () => sender.start());
      await until('the first email sent', () => seen.length === 1);
      // The next poll comes from the sender's own timer: it finds the second email, still outside.
      const again = services.db.fork();
      again.getRepository(OutboxEmail).enqueue({ kind: 'test', to: address('context'), subject: 'Two', body: 'two' });
      await again.flush();
      await until('the second email sent', () => seen.length === 2);
    } finally {
      await sender.stop();
    }
    expect(seen).toEqual([undefined, undefined]);
  });
});
