/**
 * Issue 40: a test event sent to an endpoint appears in its delivery log, marked as a test, and is
 * what the endpoint's last delivery says; it is settled by its one attempt, never retried by the
 * schedule, and a member can still send it again.
 */
import { type Receiver, startReceiver, until, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf, formWithWebhook, submitTo } from './fixtures.ts';

const t = useTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50, retryDelaysMs: [50] } });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('test events', () => {
  it('are logged with their one attempt, marked as tests, and make the last delivery; a failed one is not retried', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    const endpointPath = `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`;
    expect((await t.request('GET', endpointPath, { token: owner.token })).json.last_delivery_at).toBeNull();

    // With a key, as an agent would.
    const key = (await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token, body: { name: 'agent' } })).json.key;
    const sent = await t.request('POST', `${endpointPath}/test`, { token: key });
    expect(sent.json).toMatchObject({ status: 'succeeded', status_code: 200 });
    const [logged] = await deliveriesOf(t, owner, hook);
    expect(logged).toMatchObject({ type: 'webhook.test', test: true, status: 'succeeded', next_attempt_at: null });
    expect(logged!.attempts).toHaveLength(1);
    expect(logged!.payload).toMatchObject({ type: 'webhook.test', data: { webhook: { id: hook.webhookId } } });
    expect(logged!.event_id).toBe(receiver.received.at(-1)!.headers['webhook-id']);
    const endpoint = (await t.request('GET', endpointPath, { token: owner.token })).json;
    expect(endpoint).toMatchObject({ last_status: 'succeeded', last_delivery_at: logged!.attempts[0]!.at });

    // A failing test: logged as failed, and the schedule (50 ms here) never takes it up.
    receiver.answers.push({ status: 500, body: 'nope' });
    const failing = await t.request('POST', `${endpointPath}/test`, { token: owner.token });
    expect(failing.json).toMatchObject({ status: 'failed', status_code: 500 });
    const [failed] = await deliveriesOf(t, owner, hook);
    expect(failed).toMatchObject({ test: true, status: 'failed', next_attempt_at: null });
    // A submission's delivery to the same endpoint goes through meanwhile: the worker ran, and left the test alone.
    await submitTo(t, hook.formId);
    await until('the submission to be delivered', async () =>
      (await deliveriesOf(t, owner, hook)).some((d) => d.type === 'submission.created' && d.status === 'succeeded'),
    );
    expect((await deliveriesOf(t, owner, hook)).find((d) => d.id === failed!.id)).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === failed!.event_id)).toHaveLength(1);
    // A member may send it again.
    expect((await t.request('POST', `${endpointPath}/deliveries/${failed!.id}/retry`, { token: owner.token })).status).toBe(202);
    const resent = await until('the test to be sent again', async () => {
      const found = (await deliveriesOf(t, owner, hook)).find((d) => d.id === failed!.id);
      return found?.status === 'succeeded' ? found : undefined;
    });
    expect(resent.attempts.map((a) => [a.status_code, a.requested])).toEqual([
      [500, false],
      [200, true],
    ]);
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === failed!.event_id)).toHaveLength(2);
  });
});
