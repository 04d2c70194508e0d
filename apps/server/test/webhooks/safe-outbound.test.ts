/**
 * Webhooks go to public addresses only, unless LFK_WEBHOOK_ALLOW_PRIVATE: a URL that is private by
 * its text alone (http://, a literal private address, localhost) is refused when an endpoint is
 * added or changed; names are judged when sending, at connect time, so a name that resolved
 * publicly then and privately now (DNS rebinding), or a row written by an older version, still
 * never reaches inside the network. Every host lfk must not or cannot reach gets one answer, so a
 * key cannot map lfk's own network by adding endpoints or sending test events.
 */
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import ipaddr from 'ipaddr.js';
import { createContactForm, type Receiver, startReceiver, until, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf, submitTo } from './fixtures.ts';

/** The one answer for every host lfk must not or cannot send to. */
const NO_PUBLIC_ADDRESS = "not sent: no public address found for the URL's host";

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
      // Whoever runs lfk for development learns the way out.
      expect(res.json.error.details[0].message).toContain('LFK_WEBHOOK_ALLOW_PRIVATE=true');
    }
    expect(await t.count('webhook_endpoints where form_id = ?', [form.id])).toBe(0);
    expect(t.logs.some((line) => line.includes('LFK_WEBHOOK_ALLOW_PRIVATE is on'))).toBe(false);
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
    for (const url of [
      `https://127.0.0.1:${port}/hook`,
      `https://localhost:${port}/hook`,
      `https://[::7f00:1]:${port}/hook`,
      `https://[::ffff:127.0.0.1]:${port}/hook`,
    ]) {
      await expectRefused(url, /^not sent: no public address found for the URL's host$/);
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
    expect(delivery!.attempts[0]!.error).toBe(NO_PUBLIC_ADDRESS);
    expect(receiver.received).toHaveLength(0);
  });

  it("answers a key alike for a name that resolves privately and one that does not exist: no oracle of lfk's DNS", async () => {
    const { owner, key } = await t.signupWithKey();
    const form = await createContactForm(t, owner);
    const port = new URL(receiver.url).port;
    const privateName = await aNameResolvingPrivately();
    const hosts = { private: `https://${privateName}:${port}/hook`, missing: `https://hooks.lfk.invalid:${port}/hook` };

    // Adding either is accepted: names are not resolved when an endpoint is added.
    const created: Record<string, string> = {};
    for (const [which, url] of Object.entries(hosts)) {
      const res = await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: key, body: { url } });
      expect(res.status, `${which}: ${res.body}`).toBe(201);
      created[which] = res.json.id;
    }
    // Nor when one is moved there.
    const moved = await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: key, body: { url: 'https://hooks.example.com/lfk' } });
    for (const url of Object.values(hosts)) {
      const res = await t.request('PATCH', `/v1/forms/${form.id}/webhooks/${moved.json.id}`, { token: key, body: { url } });
      expect(res.status, res.body).toBe(200);
    }

    // A test event answers both with the same body, to the byte.
    const tests = await Promise.all(Object.values(created).map((id) => t.request('POST', `/v1/forms/${form.id}/webhooks/${id}/test`, { token: key })));
    expect(tests.map((r) => r.status)).toEqual([200, 200]);
    expect(tests[0]!.json).toEqual({ status: 'failed', status_code: null, error: NO_PUBLIC_ADDRESS, duration_ms: 0, response_excerpt: null });
    expect(tests[1]!.body).toBe(tests[0]!.body);

    // A submission's deliveries fail alike, in the log a member reads and in the list a key reads.
    await submitTo(t, form.id);
    for (const id of Object.values(created)) {
      const [delivery] = await until('the first attempt', async () => {
        const log = await deliveriesOf(t, owner, { formId: form.id, webhookId: id });
        return log[0]?.attempts.length ? log : undefined;
      });
      expect(delivery!.attempts[0]).toMatchObject({ status_code: null, error: NO_PUBLIC_ADDRESS, duration_ms: 0 });
    }
    const listed = await t.request('GET', `/v1/forms/${form.id}/webhooks`, { token: key });
    const shown = listed.json.data.filter((w: { id: string }) => Object.values(created).includes(w.id));
    const [one, other] = shown.map(({ last_status, enabled, disabled_reason }: Record<string, unknown>) => ({ last_status, enabled, disabled_reason }));
    expect(one).toEqual({ last_status: 'pending', enabled: true, disabled_reason: null });
    expect(other).toEqual(one);
    expect(receiver.received).toHaveLength(0);
    // What told them apart is in the server's own log, for its operator.
    expect(t.logs.some((line) => line.includes('"cause":"private addresses only'))).toBe(true);
    expect(t.logs.some((line) => line.includes('"cause":"ENOTFOUND"'))).toBe(true);
  });
});

/**
 * A name this machine resolves to private addresses only, that is not `localhost` (refused by its
 * text alone): the machine's own name, in its /etc/hosts.
 */
async function aNameResolvingPrivately(): Promise<string> {
  for (const name of [hostname(), 'localhost.localdomain', 'ip6-localhost']) {
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (addresses.length > 0 && addresses.every((a) => ipaddr.process(a.address).range() !== 'unicast')) return name;
  }
  throw new Error("no name here resolves to private addresses only: add one to /etc/hosts (e.g. the machine's own name)");
}

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

  it('says at start that the opt-out is on', () => {
    expect(open.logs.some((line) => line.includes('"level":40') && line.includes('LFK_WEBHOOK_ALLOW_PRIVATE is on'))).toBe(true);
  });
});
