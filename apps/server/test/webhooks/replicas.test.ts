/**
 * Many replicas, one queue: two servers on one database (on PostgreSQL, each with its own pool)
 * share the deliveries through `for update skip locked`; each event arrives exactly once while
 * nothing fails. A replica that stops mid-delivery (here: its attempt hangs past its lock) leaves
 * the delivery to be taken again, with the same `webhook-id`, and an attempt that outlives its
 * lock cannot undo the outcome recorded after it.
 */
import { ENGINE, type Receiver, startReceiver, startTestServer, type TestServer, until, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf, formWithWebhook, submitTo } from './fixtures.ts';

const ENV = { LFK_WEBHOOK_ALLOW_PRIVATE: 'true' };
// The real lock (60 s), however slow a busy machine makes an attempt; attempts that may hang as long
// as a test does. A lock that lapses is written as lapsed (what a minute does), not waited for.
const SETTINGS = { pollMs: 50, timeoutMs: 600_000 };
const a = useTestServer(ENV, { webhooks: SETTINGS });
let b: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  b = await startTestServer({ ...ENV, ...(ENGINE === 'postgresql' ? { DATABASE_URL: a.server.config.databaseUrl! } : {}) }, { webhooks: SETTINGS });
});
afterAll(async () => {
  await receiver.close();
  await b.close();
});

describe(`two replicas (${ENGINE})`, () => {
  it('deliver every event exactly once between them', async () => {
    const owner = await a.signup();
    const hook = await formWithWebhook(a, owner, receiver.url);
    const ids = await Promise.all(Array.from({ length: 60 }, (_, i) => submitTo(i % 2 ? a : b, hook.formId)));
    await until('every delivery to succeed', async () => {
      const [row] = await a.sql<{ n: number }>("select count(*)::int as n from webhook_deliveries where endpoint_id = ? and status = 'succeeded'", [
        hook.webhookId,
      ]);
      return row!.n === ids.length;
    });
    const bySubmission = new Map<string, number>();
    for (const request of receiver.received) {
      const event = JSON.parse(request.body);
      if (event.data?.form?.id !== hook.formId) continue;
      bySubmission.set(event.data.submission.id, (bySubmission.get(event.data.submission.id) ?? 0) + 1);
    }
    expect([...bySubmission.keys()].sort()).toEqual([...ids].sort());
    expect([...bySubmission.values()].every((n) => n === 1)).toBe(true);
  });

  it('take over a delivery whose attempt outlived its lock, with the same webhook-id', async () => {
    const owner = await a.signup();
    const hook = await formWithWebhook(a, owner, receiver.url);
    const before = receiver.received.length;
    receiver.answers.push('hang');
    await submitTo(a, hook.formId);
    await receiver.waitFor(before + 1);
    // The attempt hangs on past its lock, as one of a replica that died would.
    await a.sql('update webhook_deliveries set locked_until = ? where endpoint_id = ? and locked_until is not null', [
      new Date(Date.now() - 1000),
      hook.webhookId,
    ]);
    await until('the delivery to succeed on a later attempt', async () => (await deliveriesOf(a, owner, hook))[0]?.status === 'succeeded');
    const requests = receiver.received.slice(before);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);

    // The hung attempt ends (its connection is cut): logged, but the delivery stays delivered.
    await receiver.close();
    receiver = await startReceiver();
    const [delivery] = await until('the hung attempt to be logged', async () => {
      const log = await deliveriesOf(a, owner, hook);
      return log[0]!.attempts.length >= 2 && log[0]!.attempts.some((attempt) => attempt.error !== null) ? log : undefined;
    });
    expect(delivery!.status).toBe('succeeded');
    expect(delivery!.next_attempt_at).toBeNull();
    // Nor does it count against the endpoint, which a later attempt found working.
    const [endpoint] = await a.sql<{ failing_since: unknown; enabled: boolean }>('select failing_since, enabled from webhook_endpoints where id = ?', [
      hook.webhookId,
    ]);
    expect(endpoint).toEqual({ failing_since: null, enabled: true });
  });
});
