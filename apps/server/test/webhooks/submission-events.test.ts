/**
 * Issue 40: an endpoint may subscribe to a submission released from spam and to submissions
 * deleted; each is an event of its own (its own `webhook-id`), signed and delivered as submissions
 * are, and only to endpoints that asked for it.
 */
import { verifyWebhook } from '@lfk/client';
import { createContactForm, ORIGIN, type Receiver, startReceiver, submit, until, useTestServer, VALID } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf, submitTo } from './fixtures.ts';

const t = useTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50 } });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** What the receiver has had for this endpoint (told apart by its query string), verified. */
const eventsAt = (tag: string, secret: string) =>
  receiver.received.filter((r) => r.url.endsWith(`?${tag}`)).map((r) => ({ id: r.headers['webhook-id'], ...verifyWebhook(secret, r.headers, r.body) }));

async function formWithEndpoints(events: string[]) {
  const owner = await t.signup();
  const form = await createContactForm(t, owner, { spam: { honeypot: '_gotcha' } });
  const tag = `${form.id}-${events.join('+')}`;
  const res = await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: owner.token, body: { url: `${receiver.url}?${tag}`, events } });
  expect(res.status, res.body).toBe(201);
  return { owner, form, tag, webhook: res.json };
}

describe('submission.released', () => {
  it('tells a subscribed endpoint that a member released a submission from spam, with its values, under a new id', async () => {
    const { owner, form, tag, webhook } = await formWithEndpoints(['submission.created', 'submission.released']);
    const spam = await submit(t, form.id, { ...VALID, _gotcha: 'bot' }, { origin: ORIGIN });
    expect(spam.status, spam.body).toBe(201);
    const spamId = spam.json.id;
    const released = await t.request('POST', `/v1/forms/${form.id}/submissions/${spamId}/not-spam`, { token: owner.token });
    expect(released.status, released.body).toBe(200);

    const events = await until('the two events', () => {
      const got = eventsAt(tag, webhook.secret);
      return got.length >= 2 ? got : undefined;
    });
    // Never sent before, so it is also created; released says a member let it through.
    const created = events.find((e) => e.type === 'submission.created')!;
    const release = events.find((e) => e.type === 'submission.released')!;
    expect(created.id).toBe(`msg_${spamId.slice('sub_'.length)}`);
    expect(release.id).toMatch(/^msg_/);
    expect(release.id).not.toBe(created.id);
    expect(release.data).toEqual(created.data);
    expect(release.data.submission).toMatchObject({ id: spamId, values: { name: 'Ada', email: 'ada@example.com' } });
  });

  it('is not sent to an endpoint that did not subscribe to it', async () => {
    const { owner, form, webhook } = await formWithEndpoints(['submission.created']);
    const spam = await submit(t, form.id, { ...VALID, _gotcha: 'bot' }, { origin: ORIGIN });
    await t.request('POST', `/v1/forms/${form.id}/submissions/${spam.json.id}/not-spam`, { token: owner.token });
    const logged = await deliveriesOf(t, owner, { formId: form.id, webhookId: webhook.id });
    expect(logged.map((d) => d.type)).toEqual(['submission.created']);
  });
});

describe('submission.deleted', () => {
  it('tells a subscribed endpoint of each real submission a member deletes, one by one, by selection or before a time; never of spam', async () => {
    const { owner, form, tag, webhook } = await formWithEndpoints(['submission.deleted']);
    const [one, two, three] = [await submitTo(t, form.id), await submitTo(t, form.id), await submitTo(t, form.id)];
    const spam = await submit(t, form.id, { ...VALID, _gotcha: 'bot' }, { origin: ORIGIN });
    expect((await t.request('DELETE', `/v1/forms/${form.id}/submissions/${one}`, { token: owner.token })).status).toBe(204);
    const some = await t.request('POST', `/v1/forms/${form.id}/submissions/delete`, { token: owner.token, body: { ids: [two, spam.json.id] } });
    expect(some.json).toEqual({ deleted: 2 });
    const before = await t.request('POST', `/v1/forms/${form.id}/submissions/delete`, {
      token: owner.token,
      body: { before: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(before.json).toEqual({ deleted: 1 });

    const events = await until('three events', () => {
      const got = eventsAt(tag, webhook.secret);
      return got.length >= 3 ? got : undefined;
    });
    const deletions = events.flatMap((e) => (e.type === 'submission.deleted' ? [e] : []));
    expect(deletions).toHaveLength(3);
    expect(deletions.map((e) => e.data.submission.id).sort()).toEqual([one, two, three].sort());
    const first = deletions.find((e) => e.data.submission.id === one)!;
    // Which submission, never its values.
    expect(first.data).toEqual({ form: { id: form.id, name: 'Contact' }, submission: { id: one, form_id: form.id, created_at: expect.any(String) } });
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    // Logged although their submissions are gone.
    const logged = await deliveriesOf(t, owner, { formId: form.id, webhookId: webhook.id });
    expect(logged.map((d) => d.type)).toEqual(['submission.deleted', 'submission.deleted', 'submission.deleted']);
  });
});
