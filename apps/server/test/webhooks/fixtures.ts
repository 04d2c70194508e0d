import { type Account, createContactForm, ORIGIN, type Receiver, startReceiver, submit, type TestServer, until, VALID } from '@lfk/server/testing';
import { expect } from 'vitest';

export interface FormWithWebhook {
  formId: string;
  webhookId: string;
  secret: string;
}

/** A contact form of `owner`'s workspace with one webhook endpoint to `url`. */
export async function formWithWebhook(t: TestServer, owner: Account, url: string): Promise<FormWithWebhook> {
  const form = await createContactForm(t, owner);
  const res = await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: owner.token, body: { url } });
  expect(res.status, res.body).toBe(201);
  return { formId: form.id, webhookId: res.json.id, secret: res.json.secret };
}

/** A submission to the form from its allowed origin; answers its id. */
export async function submitTo(t: TestServer, formId: string, values: Record<string, string> = VALID): Promise<string> {
  const res = await submit(t, formId, values, { origin: ORIGIN });
  expect(res.status, res.body).toBe(201);
  return res.json.id;
}

/** The endpoint's delivery log, as a member's session reads it. */
export async function deliveriesOf(t: TestServer, owner: Account, hook: Pick<FormWithWebhook, 'formId' | 'webhookId'>) {
  const res = await t.request('GET', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/deliveries`, { token: owner.token });
  expect(res.status, res.body).toBe(200);
  return res.json.data as {
    id: string;
    event_id: string;
    type: string;
    test: boolean;
    status: string;
    attempts: { at: string; status_code: number | null; error: string | null; duration_ms: number; response_excerpt: string | null; requested: boolean }[];
    next_attempt_at: string | null;
    payload: any;
  }[];
}

/**
 * A new account's form with an endpoint whose receiver hangs, and one submission's attempt in flight
 * to it; `body` runs then, and the receiver is closed after it whatever happens.
 */
export async function withAttemptInFlight(
  t: TestServer,
  body: (world: { owner: Account; slow: Receiver; hook: FormWithWebhook }) => Promise<void>,
): Promise<void> {
  const owner = await t.signup();
  const slow = await startReceiver();
  try {
    slow.answers.push('hang');
    const hook = await formWithWebhook(t, owner, slow.url);
    await submitTo(t, hook.formId);
    await slow.waitFor(1);
    await body({ owner, slow, hook });
  } finally {
    await slow.close();
  }
}

/** The delivery log, once its newest delivery's first attempt is logged. */
export const loggedFirstAttempt = (t: TestServer, owner: Account, hook: Pick<FormWithWebhook, 'formId' | 'webhookId'>) =>
  until('the attempt to be logged', async () => {
    const log = await deliveriesOf(t, owner, hook);
    return log[0]?.attempts.length === 1 ? log : undefined;
  });

export type { Receiver };
