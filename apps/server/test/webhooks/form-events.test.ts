/**
 * Issue 40: besides submissions, an endpoint may subscribe to a form being closed and reopened by a
 * person; those events are signed and delivered as submissions are, and only to endpoints that
 * asked for them.
 */
import { verifyWebhook } from '@lfk/client';
import { createContactForm, type Receiver, startReceiver, until, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf } from './fixtures.ts';

const t = useTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50 } });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('form.closed and form.reopened', () => {
  it('go to the endpoints subscribed to them, signed, with the form and its closed message; not to the others', async () => {
    const owner = await t.signup();
    const form = await createContactForm(t, owner);
    const add = (events?: string[]) =>
      t.request('POST', `/v1/forms/${form.id}/webhooks`, {
        token: owner.token,
        body: { url: `${receiver.url}?${events ? 'states' : 'default'}`, ...(events ? { events } : {}) },
      });
    const states = (await add(['form.closed', 'form.reopened'])).json;
    const submissionsOnly = (await add()).json;
    expect(states.events).toEqual(['form.closed', 'form.reopened']);
    expect(submissionsOnly.events).toEqual(['submission.created']);

    expect((await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { closed: true, closed_message: 'Back in May.' } })).status).toBe(200);
    expect((await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { closed: false } })).status).toBe(200);
    // Saving it unchanged is no event.
    expect((await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { closed: false } })).status).toBe(200);

    const received = await until('both events to arrive', () => {
      const mine = receiver.received.filter((r) => r.body.includes(form.id));
      return mine.length >= 2 ? mine : undefined;
    });
    const events = received.map((r) => verifyWebhook(states.secret, r.headers, r.body));
    expect(events.map((e) => e.type).sort()).toEqual(['form.closed', 'form.reopened']);
    expect(events.find((e) => e.type === 'form.closed')!.data).toEqual({ form: { id: form.id, name: expect.any(String), closed_message: 'Back in May.' } });
    expect(events.find((e) => e.type === 'form.reopened')!.data).toEqual({ form: { id: form.id, name: expect.any(String) } });

    const logged = await deliveriesOf(t, owner, { formId: form.id, webhookId: states.id });
    expect(logged.map((d) => [d.type, d.test, d.status]).sort()).toEqual([
      ['form.closed', false, 'succeeded'],
      ['form.reopened', false, 'succeeded'],
    ]);
    // Written with the change that causes them: none for the endpoint that did not ask, none for the unchanged save.
    expect(await deliveriesOf(t, owner, { formId: form.id, webhookId: submissionsOnly.id })).toEqual([]);
  });
});
