/**
 * Moving an endpoint (a new URL) applies to the events after the move. What was queued for the old
 * URL carries submissions made before it, which a key must never read: it is `held`, sent nowhere
 * (not by its retries, not by enabling the endpoint, not by an attempt that was in flight) until a
 * member's session retries it, to the new URL, or discards it.
 */
import { type Receiver, startReceiver, until, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf, formWithWebhook, loggedFirstAttempt, submitTo, withAttemptInFlight } from './fixtures.ts';

// No automatic retry within a test (the next is an hour away); attempts may hang as long as a test does.
const t = useTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50, timeoutMs: 600_000, retryDelaysMs: [3_600_000] } });
let old: Receiver;
let moved: Receiver;
beforeAll(async () => {
  old = await startReceiver();
  moved = await startReceiver();
});
afterAll(async () => {
  await old.close();
  await moved.close();
});

/** The submission ids of the events a receiver got. */
const submissionsAt = (receiver: Receiver) => receiver.received.map((r) => JSON.parse(r.body).data?.submission?.id as string | undefined);

const deliveryPath = (hook: { formId: string; webhookId: string }, deliveryId: string, action: 'retry' | 'discard') =>
  `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/deliveries/${deliveryId}/${action}`;

describe('an endpoint moved to a new URL', () => {
  it('sends a key none of the submissions queued before, even disabled, moved and enabled again; a member retries or discards them', async () => {
    const { owner, key } = await t.signupWithKey();
    const hook = await formWithWebhook(t, owner, old.url);
    old.answers.push({ status: 500 }, { status: 500 });
    const before = [await submitTo(t, hook.formId), await submitTo(t, hook.formId)];
    const failed = await until('both deliveries to fail once', async () => {
      const log = await deliveriesOf(t, owner, hook);
      return log.length === 2 && log.every((d) => d.attempts.length === 1 && d.status === 'pending') ? log : undefined;
    });

    // The key pauses the failing endpoint, then points it elsewhere and enables it in one change.
    const paused = await t.request('PATCH', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: key, body: { enabled: false } });
    expect(paused.status, paused.body).toBe(200);
    const res = await t.request('PATCH', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: key, body: { url: moved.url, enabled: true } });
    expect(res.json).toMatchObject({ url: moved.url, enabled: true });

    // What waited for the old URL is held there: not due, not sent anywhere.
    for (const delivery of await deliveriesOf(t, owner, hook)) {
      expect(delivery).toMatchObject({ status: 'held', next_attempt_at: null, url: old.url });
    }
    // A submission after the move goes to the new URL, and only it does.
    const after = await submitTo(t, hook.formId);
    await until(
      'the new submission to be delivered',
      async () => (await deliveriesOf(t, owner, hook)).find((d) => d.payload.data.submission.id === after)?.status === 'succeeded',
    );
    expect(submissionsAt(moved)).toEqual([after]);

    // The key can neither send them on nor drop them; enabling again releases nothing.
    for (const action of ['retry', 'discard'] as const) {
      const refused = await t.request('POST', deliveryPath(hook, failed[0]!.id, action), { token: key });
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe('session_required');
    }
    await t.request('PATCH', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: key, body: { enabled: false } });
    await t.request('PATCH', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: key, body: { enabled: true } });
    const stillHeld = (await deliveriesOf(t, owner, hook)).filter((d) => before.includes(d.payload.data.submission.id));
    expect(stillHeld.map((d) => d.status)).toEqual(['held', 'held']);

    // A member's session retries one (to the URL of now: a member may read it anyway) and discards the other.
    const [retried, discarded] = stillHeld;
    const retry = await t.request('POST', deliveryPath(hook, retried!.id, 'retry'), { token: owner.token });
    expect(retry.status, retry.body).toBe(202);
    expect(retry.json).toMatchObject({ status: 'pending', url: moved.url });
    await until('the retried delivery to succeed', async () => (await deliveriesOf(t, owner, hook)).find((d) => d.id === retried!.id)?.status === 'succeeded');
    const arrived = moved.received.find((r) => r.headers['webhook-id'] === retried!.event_id);
    expect(arrived, 'the retry arrived with the same webhook-id').toBeDefined();

    const discard = await t.request('POST', deliveryPath(hook, discarded!.id, 'discard'), { token: owner.token });
    expect(discard.status, discard.body).toBe(200);
    expect(discard.json).toMatchObject({ id: discarded!.id, status: 'discarded', next_attempt_at: null });
    // Discarding twice is the same; a delivery that succeeded has nothing to discard.
    expect((await t.request('POST', deliveryPath(hook, discarded!.id, 'discard'), { token: owner.token })).json.status).toBe('discarded');
    const late = await t.request('POST', deliveryPath(hook, retried!.id, 'discard'), { token: owner.token });
    expect(late.status).toBe(409);
    expect(late.json.error.code).toBe('webhook_delivery_succeeded');
    expect(submissionsAt(moved).filter((id) => id === discarded!.payload.data.submission.id)).toEqual([]);

    const audit = await t.sql<{ action: string; data: Record<string, unknown> }>(
      "select action, data from audit_events where target_id = ? and action in ('webhook.updated', 'webhook.delivery_retried', " +
        "'webhook.delivery_discarded') order by id",
      [hook.webhookId],
    );
    expect(audit.find((a) => (a.data.fields as string[]).includes?.('url'))?.data).toMatchObject({ fields: ['url', 'enabled'], held: 2 });
    expect(audit.filter((a) => a.action === 'webhook.delivery_discarded').map((a) => a.data.delivery_id)).toEqual([discarded!.id]);
  });

  it('holds a delivery whose attempt was in flight at the move: it went to the URL it was queued for, and is not retried to the new one', async () => {
    await withAttemptInFlight(t, async ({ owner, slow, hook }) => {
      // A member's session moves it too: the rule is the endpoint's, whoever moves it.
      const res = await t.request('PATCH', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: owner.token, body: { url: moved.url } });
      expect(res.status, res.body).toBe(200);
      // The attempt in flight fails now (its connection is cut), after the move.
      await slow.close();
      const [delivery] = await loggedFirstAttempt(t, owner, hook);
      expect(delivery).toMatchObject({ status: 'held', next_attempt_at: null, url: slow.url });
      expect(moved.received.filter((r) => r.headers['webhook-id'] === delivery!.event_id)).toEqual([]);
      // Nor does the old URL's failure count against the endpoint at its new URL.
      const [endpoint] = await t.sql<{ failing_since: unknown }>('select failing_since from webhook_endpoints where id = ?', [hook.webhookId]);
      expect(endpoint!.failing_since).toBeNull();
    });
  });

  it('a delivery being attempted cannot be discarded', async () => {
    await withAttemptInFlight(t, async ({ owner, hook }) => {
      const [delivery] = await deliveriesOf(t, owner, hook);
      const res = await t.request('POST', deliveryPath(hook, delivery!.id, 'discard'), { token: owner.token });
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe('webhook_delivery_in_flight');
    });
  });
});
