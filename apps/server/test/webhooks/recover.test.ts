/**
 * Issue 40: a recover sends a form's events of a time range to one endpoint again, with their
 * original `webhook-id`s: what it missed while disabled, or what its receiver lost.
 */
import { verifyWebhook } from '@lfk/client';
import { type Receiver, startReceiver, until, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf, formWithWebhook, submitTo } from './fixtures.ts';

const t = useTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50 } });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const HOUR = 3_600_000;
const eventId = (submissionId: string) => `msg_${submissionId.slice('sub_'.length)}`;

/** A form whose one endpoint (to the receiver, tagged by the form) takes submissions and the form's closing. */
async function setUp() {
  const owner = await t.signup();
  const hook = await formWithWebhook(t, owner, `${receiver.url}?recover`);
  const base = `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`;
  const events = await t.request('PATCH', base, { token: owner.token, body: { events: ['submission.created', 'form.closed'] } });
  expect(events.status, events.body).toBe(200);
  const receivedHere = () => receiver.received.filter((r) => r.body.includes(hook.formId));
  return { owner, hook, base, receivedHere };
}

describe('what an endpoint missed while disabled', () => {
  it('is kept until a recover sends it: one that reaches part of a range narrows it; two times disabled stay apart; none when nothing was made', async () => {
    const { owner, hook, base } = await setUp();
    const missedNow = async () => (await t.request('GET', base, { token: owner.token })).json.missed as { since: string; until: string }[];
    // Disabled and enabled with nothing made between: nothing is missed.
    await t.request('PATCH', base, { token: owner.token, body: { enabled: false } });
    expect((await t.request('PATCH', base, { token: owner.token, body: { enabled: true } })).json.missed).toEqual([]);

    const disabled = await t.request('PATCH', base, { token: owner.token, body: { enabled: false } });
    const first = await submitTo(t, hook.formId);
    const firstAt = (await t.sql<{ created_at: Date }>('select created_at from submissions where id = ?', [first]))[0]!.created_at;
    await submitTo(t, hook.formId);
    const [missed] = (await t.request('PATCH', base, { token: owner.token, body: { enabled: true } })).json.missed;
    expect(missed.since).toBe(disabled.json.disabled_at);

    // Delivered live between two times disabled: not offered again.
    await submitTo(t, hook.formId);
    await t.request('PATCH', base, { token: owner.token, body: { enabled: false } });
    await submitTo(t, hook.formId);
    const twice = (await t.request('PATCH', base, { token: owner.token, body: { enabled: true } })).json.missed;
    expect(twice).toHaveLength(2);
    expect(twice[0]).toEqual(missed);
    expect(new Date(twice[1].since) >= new Date(missed.until)).toBe(true);

    // A recover of the first range's first part leaves the rest offered.
    const middle = new Date(new Date(firstAt).getTime() + 1).toISOString();
    const part = await t.request('POST', `${base}/recover`, { token: owner.token, body: { since: missed.since, until: middle } });
    expect(part.json.queued).toBe(1);
    expect(await missedNow()).toEqual([{ since: middle, until: missed.until }, twice[1]]);
    // A recover that starts after a range leaves it as it is; the rest of each, sent, ends them.
    expect((await t.request('POST', `${base}/recover`, { token: owner.token, body: { since: twice[1].until } })).status).toBe(202);
    expect(await missedNow()).toEqual([{ since: middle, until: missed.until }, twice[1]]);
    expect((await t.request('POST', `${base}/recover`, { token: owner.token, body: { since: middle, until: missed.until } })).json.queued).toBe(1);
    expect(await missedNow()).toEqual([twice[1]]);
    expect((await t.request('POST', `${base}/recover`, { token: owner.token, body: twice[1] })).json.queued).toBe(1);
    expect(await missedNow()).toEqual([]);
  });
});

describe('recover', () => {
  it('sends what an endpoint missed while it was disabled, with the original ids, once; the dashboard can count it first', async () => {
    const { owner, hook, base, receivedHere } = await setUp();
    const before = await submitTo(t, hook.formId);
    await until('the first delivery', () => (receivedHere().length === 1 ? true : undefined));

    const disabled = await t.request('PATCH', base, { token: owner.token, body: { enabled: false } });
    expect(disabled.json.disabled_at).toEqual(expect.any(String));
    const missed = [await submitTo(t, hook.formId), await submitTo(t, hook.formId)];
    // Deleted before the recover: not sent.
    const gone = await submitTo(t, hook.formId);
    expect((await t.request('DELETE', `/v1/forms/${hook.formId}/submissions/${gone}`, { token: owner.token })).status).toBe(204);
    expect((await t.request('PATCH', `/v1/forms/${hook.formId}`, { token: owner.token, body: { closed: true } })).status).toBe(200);

    const enabled = await t.request('PATCH', base, { token: owner.token, body: { enabled: true } });
    expect(enabled.json.disabled_at).toBeNull();
    // Nothing went while it was disabled; what it missed is kept on the endpoint, read again later too.
    expect(receivedHere()).toHaveLength(1);
    expect(enabled.json.missed).toEqual([{ since: disabled.json.disabled_at, until: expect.any(String) }]);
    expect((await t.request('GET', base, { token: owner.token })).json.missed).toEqual(enabled.json.missed);

    const since = disabled.json.disabled_at;
    const count = await t.request('POST', `${base}/recover`, { token: owner.token, body: { since, dry_run: true } });
    expect(count.status, count.body).toBe(202);
    expect(count.json).toEqual({ queued: 3, already_waiting: 0, next_since: null, dry_run: true });

    expect((await t.request('GET', base, { token: owner.token })).json.missed).toEqual(enabled.json.missed);
    const recovered = await t.request('POST', `${base}/recover`, { token: owner.token, body: { since } });
    expect(recovered.json).toEqual({ queued: 3, already_waiting: 0, next_since: null, dry_run: false });
    // Sent: nothing is missed any more.
    expect((await t.request('GET', base, { token: owner.token })).json.missed).toEqual([]);
    const arrived = await until('the recovered events', () => (receivedHere().length >= 4 ? receivedHere().slice(1) : undefined));
    const events = arrived.map((r) => ({ id: r.headers['webhook-id'], event: verifyWebhook(hook.secret, r.headers, r.body) }));
    // Each submission under its own event id, as if it had been sent then (up to 16 go at once: in any order).
    expect(events.map((e) => e.event.type).sort()).toEqual(['form.closed', 'submission.created', 'submission.created']);
    expect(
      events
        .filter((e) => e.event.type === 'submission.created')
        .map((e) => e.id)
        .sort(),
    ).toEqual(missed.map(eventId).sort());
    expect(events.map((e) => e.id)).not.toContain(eventId(before));

    const audit = await t.sql<{ data: { queued: number; since: string } }>(
      "select data from audit_events where action = 'webhook.recovered' and target_id = ?",
      [hook.webhookId],
    );
    expect(audit.map((a) => a.data)).toEqual([expect.objectContaining({ queued: 3, since: new Date(since).toISOString() })]);
  });

  it('sends again what was delivered (a receiver lost it) under the same id, but not what still waits for the endpoint', async () => {
    const { owner, hook, base, receivedHere } = await setUp();
    const delivered = await submitTo(t, hook.formId);
    await until('the delivery', () => (receivedHere().length === 1 ? true : undefined));
    // The receiver fails from now on: the next submission's delivery waits to be retried.
    receiver.answers.push(...Array.from({ length: 50 }, () => ({ status: 500 })));
    const waiting = await submitTo(t, hook.formId);
    await until('its failed first attempt', () => (receivedHere().length === 2 ? true : undefined));
    receiver.answers.length = 0;

    const since = new Date(Date.now() - HOUR).toISOString();
    const recovered = await t.request('POST', `${base}/recover`, { token: owner.token, body: { since } });
    expect(recovered.json).toMatchObject({ queued: 1, already_waiting: 1 });
    const logged = await deliveriesOf(t, owner, hook);
    expect(logged.filter((d) => d.event_id === eventId(delivered))).toHaveLength(2);
    expect(logged.filter((d) => d.event_id === eventId(waiting))).toHaveLength(1);
  });

  it('refuses a range over 30 days back, an end before its start, and a disabled endpoint', async () => {
    const { owner, base } = await setUp();
    const tooOld = await t.request('POST', `${base}/recover`, { token: owner.token, body: { since: new Date(Date.now() - 31 * 24 * HOUR).toISOString() } });
    expect(tooOld.status).toBe(400);
    expect(tooOld.json.error.details).toEqual([{ path: 'since', message: 'At most 30 days back.' }]);
    const backwards = await t.request('POST', `${base}/recover`, {
      token: owner.token,
      body: { since: new Date(Date.now() - HOUR).toISOString(), until: new Date(Date.now() - 2 * HOUR).toISOString() },
    });
    expect(backwards.status).toBe(400);
    expect(backwards.json.error.details).toEqual([{ path: 'until', message: 'Must be after since.' }]);
    const future = await t.request('POST', `${base}/recover`, { token: owner.token, body: { since: new Date(Date.now() + HOUR).toISOString() } });
    expect(future.json.error.details).toEqual([{ path: 'since', message: 'Must be in the past.' }]);
    const notATime = await t.request('POST', `${base}/recover`, { token: owner.token, body: { since: '2h' } });
    expect(notATime.status).toBe(400);

    await t.request('PATCH', base, { token: owner.token, body: { enabled: false } });
    const disabled = await t.request('POST', `${base}/recover`, { token: owner.token, body: { since: new Date(Date.now() - HOUR).toISOString() } });
    expect(disabled.status).toBe(409);
    expect(disabled.json.error.code).toBe('webhook_disabled');
  });

  it('takes at most 10,000 events at once, and says where the rest start', async () => {
    const { owner, hook, base } = await setUp();
    const start = Date.now() - HOUR;
    // 10,001 real submissions a millisecond apart, written at once.
    await t.sql(
      `insert into submissions (id, form_id, data, source, status, created_at)
       select 'sub_' || lpad(i::text, 26, '0'), ?, '{"name":"Ada","email":"ada@example.com"}', 'api_key', 'ok',
         to_timestamp(? / 1000.0) + i * interval '1 millisecond'
       from generate_series(0, 10000) as i`,
      [hook.formId, start],
    );
    const count = await t.request('POST', `${base}/recover`, { token: owner.token, body: { since: new Date(start - 1000).toISOString(), dry_run: true } });
    expect(count.json).toEqual({ queued: 10_000, already_waiting: 0, next_since: new Date(start + 10_000).toISOString(), dry_run: true });
  });
});
