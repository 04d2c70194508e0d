/**
 * Issue 40: the automatic retry schedule is the server's, and only a receiver's own signal moves
 * it. A member's "Retry now" sends one attempt and leaves it as it was; a `Retry-After` on a 429 or
 * 503 puts the next attempt off (by an hour at most), on a 500 it is ignored. (The rules alone, on
 * a fixed clock: packages/api/src/features/webhooks/retry-schedule.test.ts.)
 */
import { type Account, type Receiver, startReceiver, startTestServer, type TestServer, until, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf, type FormWithWebhook, formWithWebhook, submitTo } from './fixtures.ts';

// An hour between automatic attempts: none comes during a test but the first.
const t = useTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50, retryDelaysMs: [3_600_000, 3_600_000] } });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

type Delivery = Awaited<ReturnType<typeof deliveriesOf>>[number];
const retry = (server: TestServer, token: string, hook: FormWithWebhook, deliveryId: string) =>
  server.request('POST', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/deliveries/${deliveryId}/retry`, { token });

/** The endpoint's one delivery once it has `count` attempts logged. */
async function withAttempts(server: TestServer, owner: Account, hook: FormWithWebhook, count: number): Promise<Delivery> {
  return until(`${count} attempts logged`, async () => {
    const [delivery] = await deliveriesOf(server, owner, hook);
    return delivery && delivery.attempts.length >= count ? delivery : undefined;
  });
}

const secondsAfter = (delivery: Delivery, attempt: number) => (Date.parse(delivery.next_attempt_at!) - Date.parse(delivery.attempts[attempt]!.at)) / 1000;

describe('Retry now', () => {
  it('sends one attempt now and leaves the automatic schedule as it was; the log marks it', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    receiver.answers.push({ status: 500, body: 'first' });
    await submitTo(t, hook.formId);
    const failed = await withAttempts(t, owner, hook, 1);
    expect(failed).toMatchObject({ status: 'pending' });
    const scheduled = failed.next_attempt_at;
    expect(secondsAfter(failed, 0)).toBeGreaterThanOrEqual(2_880);

    receiver.answers.push({ status: 500, body: 'still down' });
    expect((await retry(t, owner.token, hook, failed.id)).status).toBe(202);
    const retried = await withAttempts(t, owner, hook, 2);
    expect(retried.attempts.map((a) => [a.status_code, a.requested])).toEqual([
      [500, false],
      [500, true],
    ]);
    expect(retried).toMatchObject({ status: 'pending', next_attempt_at: scheduled });

    // However many times.
    receiver.answers.push({ status: 500, body: 'down again' });
    expect((await retry(t, owner.token, hook, failed.id)).status).toBe(202);
    const again = await withAttempts(t, owner, hook, 3);
    expect(again).toMatchObject({ status: 'pending', next_attempt_at: scheduled });

    expect((await retry(t, owner.token, hook, failed.id)).status).toBe(202);
    const delivered = await until('the retry to succeed', async () => {
      const [delivery] = await deliveriesOf(t, owner, hook);
      return delivery?.status === 'succeeded' ? delivery : undefined;
    });
    expect(delivered.attempts.map((a) => a.requested)).toEqual([false, true, true, true]);
    expect(delivered.next_attempt_at).toBeNull();
  });

  it('a failed delivery retried and failing again stays failed: a retry never starts the schedule over', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    receiver.answers.push({ status: 500 });
    await submitTo(t, hook.formId);
    const first = await withAttempts(t, owner, hook, 1);
    // Out of attempts, as the schedule would leave it after its last.
    await t.sql("update webhook_deliveries set status = 'failed', next_attempt_at = null, attempt_count = 3 where id = ?", [first.id]);
    receiver.answers.push({ status: 500 });
    expect((await retry(t, owner.token, hook, first.id)).status).toBe(202);
    const retried = await until('the retry to be logged', async () => {
      const [delivery] = await deliveriesOf(t, owner, hook);
      return delivery?.attempts.length === 2 && delivery.status !== 'pending' ? delivery : undefined;
    });
    expect(retried).toMatchObject({ status: 'failed', next_attempt_at: null });
  });
});

describe("a receiver's Retry-After", () => {
  // A minute between automatic attempts, so that a longer Retry-After shows. A database of its
  // own, so that no other server's worker (with another schedule) takes its deliveries.
  let quick: TestServer;
  beforeAll(async () => {
    quick = await startTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50, retryDelaysMs: [60_000] }, database: 'own' });
  });
  afterAll(() => quick?.close());

  it.each([
    { answer: { status: 503, headers: { 'retry-after': '120' } }, seconds: 120, what: 'a 503 asking for 2 minutes waits 2 minutes' },
    { answer: { status: 429, headers: { 'retry-after': '86400' } }, seconds: 3_600, what: 'a 429 asking for a day waits an hour, the most it may' },
  ])('$what', async ({ answer, seconds }) => {
    const owner = await quick.signup();
    const hook = await formWithWebhook(quick, owner, receiver.url);
    receiver.answers.push(answer);
    await submitTo(quick, hook.formId);
    const delivery = await withAttempts(quick, owner, hook, 1);
    expect(delivery.status).toBe('pending');
    expect(secondsAfter(delivery, 0)).toBe(seconds);
  });

  it('on a 500 it is not a receiver’s signal: the schedule stands (a minute, ±20 %)', async () => {
    const owner = await quick.signup();
    const hook = await formWithWebhook(quick, owner, receiver.url);
    receiver.answers.push({ status: 500, headers: { 'retry-after': '600' } });
    await submitTo(quick, hook.formId);
    const delivery = await withAttempts(quick, owner, hook, 1);
    expect(secondsAfter(delivery, 0)).toBeGreaterThanOrEqual(48);
    expect(secondsAfter(delivery, 0)).toBeLessThanOrEqual(72);
  });
});
