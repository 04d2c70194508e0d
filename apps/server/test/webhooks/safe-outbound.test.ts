/**
 * Webhooks go to public addresses only, unless LFK_WEBHOOK_ALLOW_PRIVATE: private URLs are refused
 * when an endpoint is added or changed, and the address actually connected to is checked again
 * at connect time, so a name that resolved publicly then and privately now (DNS rebinding), or
 * a row written by an older version, still never reaches inside the network.
 */
import { createContactForm, type Receiver, startReceiver, useTestServer } from '@lfk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf, submitTo } from './fixtures.ts';

const t = useTestServer({}, { webhooks: { pollMs: 50 } });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const PRIVATE_URLS = [
  'http://hooks.example.com/lfk',
  'https://127.0.0.1/hook',
  'https://10.0.0.8/hook',
  'https://192.168.1.20/hook',
  'https://169.254.169.254/latest/meta-data',
  'https://100.100.100.200/hook',
  'https://[::1]/hook',
  'https://[fd00:ec2::254]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://localhost/hook',
  'https://api.localhost/hook',
];

describe('without LFK_WEBHOOK_ALLOW_PRIVATE', () => {
  it('refuses http:// and private, loopback, link-local and CGNAT addresses, storing nothing', async () => {
    const owner = await t.signup();
    const form = await createContactForm(t, owner);
    for (const url of PRIVATE_URLS) {
      const res = await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: owner.token, body: { url } });
      expect(res.status, `${url} → ${res.body}`).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'invalid_request', details: [{ path: 'url' }] });
    }
    expect(await t.count('webhook_endpoints where form_id = ?', [form.id])).toBe(0);
  });

  it('refuses a private URL in a change too', async () => {
    const owner = await t.signup();
    const form = await createContactForm(t, owner);
    const created = await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: owner.token, body: { url: 'https://hooks.example.com/lfk' } });
    expect(created.status, created.body).toBe(201);
    const res = await t.request('PATCH', `/v1/forms/${form.id}/webhooks/${created.json.id}`, { token: owner.token, body: { url: 'https://127.0.0.1/x' } });
    expect(res.status).toBe(400);
    const [row] = await t.sql<{ url: string }>('select url from webhook_endpoints where id = ?', [created.json.id]);
    expect(row!.url).toBe('https://hooks.example.com/lfk');
  });

  it('checks the address connected to: an endpoint that now points at a private address gets nothing', async () => {
    const owner = await t.signup();
    const form = await createContactForm(t, owner);
    const created = await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: owner.token, body: { url: 'https://hooks.example.com/lfk' } });
    const port = new URL(receiver.url).port;
    const hook = { formId: form.id, webhookId: created.json.id as string };
    const expectRefused = async (url: string, reason: RegExp) => {
      // As if DNS now answered a private address for the name that was checked (or a row an older version wrote).
      await t.sql('update webhook_endpoints set url = ? where id = ?', [url, hook.webhookId]);
      const test = await t.request('POST', `/v1/forms/${form.id}/webhooks/${hook.webhookId}/test`, { token: owner.token });
      expect(test.status, test.body).toBe(200);
      expect(test.json).toMatchObject({ status: 'failed', status_code: null });
      expect(test.json.error, url).toMatch(reason);
      // It says which name was refused, never what a name resolved to.
      if (url.includes('localhost')) expect(test.json.error).not.toContain('127.0.0.1');
    };
    await expectRefused(`http://127.0.0.1:${port}/hook`, /https:\/\/ URLs only/);
    for (const url of [`https://127.0.0.1:${port}/hook`, `https://localhost:${port}/hook`, `https://[::7f00:1]:${port}/hook`, `https://[::ffff:127.0.0.1]:${port}/hook`]) {
      await expectRefused(url, /not a public address/);
    }
    await submitTo(t, form.id);
    const [delivery] = await (async () => {
      for (;;) {
        const log = await deliveriesOf(t, owner, hook);
        if (log[0]?.attempts.length) return log;
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    expect(delivery!.status).toBe('pending');
    expect(delivery!.attempts[0]!.error).toMatch(/not a public address/);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('with LFK_WEBHOOK_ALLOW_PRIVATE=true', () => {
  // A database of its own: the other server's worker never sees its rows.
  const open = useTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { database: 'own' });

  it('takes http:// and private addresses, and delivers to them', async () => {
    const owner = await open.signup();
    const form = await createContactForm(open, owner);
    for (const url of ['http://10.0.0.8/hook', 'https://[::1]/hook', 'http://localhost/hook']) {
      const res = await open.request('POST', `/v1/forms/${form.id}/webhooks`, { token: owner.token, body: { url } });
      expect(res.status, `${url} → ${res.body}`).toBe(201);
      await open.request('DELETE', `/v1/forms/${form.id}/webhooks/${res.json.id}`, { token: owner.token });
    }
    const created = await open.request('POST', `/v1/forms/${form.id}/webhooks`, { token: owner.token, body: { url: receiver.url } });
    const test = await open.request('POST', `/v1/forms/${form.id}/webhooks/${created.json.id}/test`, { token: owner.token });
    expect(test.json).toMatchObject({ status: 'succeeded', status_code: 200 });
    expect(receiver.received).toHaveLength(1);
  });
});
