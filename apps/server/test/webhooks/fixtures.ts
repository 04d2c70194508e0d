import { type Account, createContactForm, ORIGIN, type Receiver, submit, type TestServer, VALID } from '@lfk/server/testing';
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

export type { Receiver };
