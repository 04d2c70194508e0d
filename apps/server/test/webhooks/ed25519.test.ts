/**
 * Issue 40: an endpoint may sign with Ed25519 (Standard Webhooks' `v1a`): its receivers verify
 * with a public key (`whpk_…`) and hold nothing that could sign; lfk's private key never leaves it.
 */
import { verifyWebhook, WebhookVerificationError } from '@lfk/client';
import { createContactForm, type Receiver, startReceiver, until, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitTo } from './fixtures.ts';

const t = useTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50 } });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function ed25519Endpoint() {
  const owner = await t.signup();
  const form = await createContactForm(t, owner);
  const created = await t.request('POST', `/v1/forms/${form.id}/webhooks`, {
    token: owner.token,
    body: { url: `${receiver.url}?${form.id}`, signing: 'ed25519' },
  });
  expect(created.status, created.body).toBe(201);
  const arrivals = () => receiver.received.filter((r) => r.url.endsWith(`?${form.id}`));
  return { owner, form, webhook: created.json, base: `/v1/forms/${form.id}/webhooks/${created.json.id}`, arrivals };
}

describe('ed25519 signing', () => {
  it('shares no secret: the endpoint shows its public key, and deliveries verify with it alone', async () => {
    const { owner, form, webhook, base, arrivals } = await ed25519Endpoint();
    expect(webhook).toMatchObject({ signing: 'ed25519', secret: null, public_key: expect.stringMatching(/^whpk_[A-Za-z0-9+/]{43}=$/) });
    expect(webhook.secrets).toEqual([{ number: 1, created_at: expect.any(String), expires_at: null, public_key: webhook.public_key }]);
    // Nothing to reveal, and the private key is stored sealed, never as the public key's pair in clear.
    const revealed = await t.request('GET', `${base}/secret`, { token: owner.token });
    expect(revealed.status).toBe(409);
    expect(revealed.json.error.code).toBe('webhook_secret_not_shared');
    const [stored] = await t.sql<{ secret_sealed: string }>('select secret_sealed from webhook_endpoints where id = ?', [webhook.id]);
    expect(stored!.secret_sealed).not.toContain('whsk_');

    const submissionId = await submitTo(t, form.id);
    const [request] = await until('the delivery', () => (arrivals().length >= 1 ? arrivals() : undefined));
    expect(String(request!.headers['webhook-signature'])).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
    const event = verifyWebhook(webhook.public_key, request!.headers, request!.body);
    expect(event).toMatchObject({ type: 'submission.created', data: { submission: { id: submissionId } } });

    // A changed body, another key, or an old timestamp does not verify.
    expect(() => verifyWebhook(webhook.public_key, request!.headers, request!.body.replace('Ada', 'Eve'))).toThrow(WebhookVerificationError);
    const other = await ed25519Endpoint();
    expect(() => verifyWebhook(other.webhook.public_key, request!.headers, request!.body)).toThrow(WebhookVerificationError);
    const stale = { ...request!.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 600) };
    expect(() => verifyWebhook(webhook.public_key, stale, request!.body)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook('whpk_not-a-key', request!.headers, request!.body)).toThrow(WebhookVerificationError);

    // The test event is signed the same way.
    const tested = await t.request('POST', `${base}/test`, { token: owner.token });
    expect(tested.json.status).toBe('succeeded');
    const test = arrivals().at(-1)!;
    expect(verifyWebhook(webhook.public_key, test.headers, test.body).type).toBe('webhook.test');
  });

  it('rotates to a new key pair; the old public key verifies too until its end, one v1a signature each', async () => {
    const { owner, form, webhook, base, arrivals } = await ed25519Endpoint();
    const rotated = await t.request('POST', `${base}/rotate-secret`, { token: owner.token });
    expect(rotated.status, rotated.body).toBe(201);
    expect(rotated.json).toMatchObject({
      secret: null,
      number: 2,
      public_key: expect.stringMatching(/^whpk_/),
      previous_secret_expires_at: expect.any(String),
    });
    expect(rotated.json.public_key).not.toBe(webhook.public_key);
    const read = await t.request('GET', base, { token: owner.token });
    expect(read.json.public_key).toBe(rotated.json.public_key);
    expect(read.json.secrets.map((s: { number: number; public_key: string }) => [s.number, s.public_key])).toEqual([
      [2, rotated.json.public_key],
      [1, webhook.public_key],
    ]);

    await submitTo(t, form.id);
    const [request] = await until('the delivery', () => (arrivals().length >= 1 ? arrivals() : undefined));
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(rotated.json.public_key, request!.headers, request!.body).type).toBe('submission.created');
    expect(verifyWebhook(webhook.public_key, request!.headers, request!.body).type).toBe('submission.created');
  });

  it('refuses a signing scheme it does not know', async () => {
    const owner = await t.signup();
    const form = await createContactForm(t, owner);
    const res = await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: owner.token, body: { url: receiver.url, signing: 'rsa' } });
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].path).toBe('signing');
  });
});
