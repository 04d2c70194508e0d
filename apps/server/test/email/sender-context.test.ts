/**
 * The email sender works in its own async context. A request that queues mail wakes it; the
 * sending, and every poll after it, must not run as part of that request (anything tracing requests
 * through async context would count the sender's statements as the request's, and the request's
 * context would stay alive for as long as the server runs).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { BACKGROUND_DEFAULTS, emailSender, type MailTransport } from '@lfk/api';
import { OutboxEmail } from '@lfk/db';
import { until, useTestServer } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import { address } from './fixtures.ts';

describe('the email sender woken by a request', () => {
  // The server's own sender polls too rarely to take the test's email first.
  const t = useTestServer({}, { outbox: { pollMs: 3_600_000 } });

  it('sends outside the request that woke it, and keeps polling outside it', async () => {
    const request = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const transport: MailTransport = {
      async send() {
        seen.push(request.getStore());
      },
      close() {},
    };
    const sender = emailSender(t.server.db, t.server.services.secretBox, transport, t.server.app.log, { ...BACKGROUND_DEFAULTS.email, pollMs: 20 });
    const em = t.server.db.fork();
    em.getRepository(OutboxEmail).enqueue({ kind: 'test', to: address('context'), subject: 'One', body: 'one' });
    await em.flush();
    try {
      // start() wakes the sender at once, as a request that queued mail does; here inside a request's context.
      request.run('the request', () => sender.start());
      await until('the first email sent', () => seen.length === 1);
      // The next poll comes from the sender's own timer: it finds the second email, still outside.
      const again = t.server.db.fork();
      again.getRepository(OutboxEmail).enqueue({ kind: 'test', to: address('context'), subject: 'Two', body: 'two' });
      await again.flush();
      await until('the second email sent', () => seen.length === 2);
    } finally {
      await sender.stop();
    }
    expect(seen).toEqual([undefined, undefined]);
  });
});
