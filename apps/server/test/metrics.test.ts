/**
 * `GET /metrics` (DESIGN §13): off unless `LFK_METRICS` turns it on, on the API's port or on one of
 * its own; Prometheus text with requests by route and status, key checks by outcome, the outbox
 * and webhook queues' depth and age, webhook attempts by outcome, the database pool and process
 * figures. Each figure is checked against what the test did.
 */
import { newId } from '@lfk/db';
import { ENGINE, freePort, ORIGIN, startReceiver, startTestServer, submit, until, useTestServer, VALID } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import { deliveriesOf, formWithWebhook } from './webhooks/fixtures.ts';

/** Parses Prometheus text: `name{labels} value` lines, by the series as written. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

describe('metrics off', () => {
  const t = useTestServer();

  it('are not served unless LFK_METRICS turns them on', async () => {
    const res = await t.request('GET', '/metrics');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('not_found');
  });
});

describe('metrics on the API port (LFK_METRICS=true)', () => {
  const t = useTestServer({ LFK_METRICS: 'true', LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50 } });
  const scrape = async () => {
    const res = await t.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return samples(res.body);
  };

  it('count requests by method, route pattern and status; an unknown URL is one "unmatched" route', async () => {
    const { owner, key } = await t.signupWithKey();
    const before = await scrape();
    const series = 'lfk_http_requests_total{method="GET",route="/v1/workspaces/:workspace_id/api-keys",status="200"}';
    for (let i = 0; i < 3; i++) expect((await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token })).status).toBe(200);
    expect((await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: key })).status).toBe(403);
    await t.request('GET', '/no/such/route/1');
    await t.request('GET', '/no/such/route/2');

    const after = await scrape();
    expect((after.get(series) ?? 0) - (before.get(series) ?? 0)).toBe(3);
    const forbidden = 'lfk_http_requests_total{method="GET",route="/v1/workspaces/:workspace_id/api-keys",status="403"}';
    expect((after.get(forbidden) ?? 0) - (before.get(forbidden) ?? 0)).toBe(1);
    const unmatched = 'lfk_http_requests_total{method="GET",route="unmatched",status="404"}';
    expect((after.get(unmatched) ?? 0) - (before.get(unmatched) ?? 0)).toBe(2);
    expect([...after.keys()].some((name) => name.includes('/no/such/route'))).toBe(false);
    expect(after.get('lfk_http_request_duration_seconds_count{method="GET",route="/v1/workspaces/:workspace_id/api-keys"}')).toBeGreaterThanOrEqual(4);
  });

  it('count API key checks by outcome and by where the answer came from', async () => {
    const { owner, key } = await t.signupWithKey();
    const form = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Metrics', schema: [{ name: 'email', type: 'email', required: true }], workspace_id: owner.workspaceId },
    });
    expect(form.status).toBe(201);
    const before = await scrape();
    const read = (token: string) => t.request('GET', `/v1/forms/${form.json.id}`, { token });
    expect((await read(key)).status).toBe(200);
    expect((await read(key)).status).toBe(200);
    expect((await read(`lfk_${'A'.repeat(40)}`)).status).toBe(401);
    expect((await read(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).status).toBe(401);

    const after = await scrape();
    const grew = (series: string) => (after.get(`lfk_api_key_checks_total{${series}}`) ?? 0) - (before.get(`lfk_api_key_checks_total{${series}}`) ?? 0);
    // The key was checked against the database when the form was made; both reads come from the cache.
    expect(grew('outcome="accepted",source="cache"')).toBe(2);
    expect(grew('outcome="malformed",source="none"')).toBe(2);
  });

  it('show the outbox and webhook queues: how many wait and how long the oldest has, and attempts by outcome', async () => {
    // An email due in an hour (a retry waiting out its backoff), written a minute ago.
    const now = Date.now();
    await t.sql(
      `insert into outbox_emails (id, kind, "to", subject, body, status, attempts, next_attempt_at, created_at) values (?, 'test', ` +
        `'someone@example.com', 'Waiting', 'body', 'pending', 1, ?, ?)`,
      [newId('eml'), new Date(now + 3600_000), new Date(now - 60_000)],
    );
    const queued = await scrape();
    expect(queued.get('lfk_outbox_emails_waiting')).toBeGreaterThanOrEqual(1);
    expect(queued.get('lfk_outbox_emails_oldest_age_seconds')).toBeGreaterThanOrEqual(60);
    expect(queued.has('lfk_webhook_deliveries_waiting')).toBe(true);
    expect(queued.has('lfk_webhook_deliveries_oldest_age_seconds')).toBe(true);

    const receiver = await startReceiver();
    try {
      receiver.answers.push({ status: 500 });
      const owner = await t.signup();
      const hook = await formWithWebhook(t, owner, receiver.url);
      const before = await scrape();
      const attempts = async (outcome: string) =>
        ((await scrape()).get(`lfk_webhook_attempts_total{outcome="${outcome}"}`) ?? 0) - (before.get(`lfk_webhook_attempts_total{outcome="${outcome}"}`) ?? 0);
      // The first attempt is refused (500: it will be retried); retried now, it is delivered.
      expect((await submit(t, hook.formId, VALID, { origin: ORIGIN })).status).toBe(201);
      await until('the refused attempt counted', async () => (await attempts('retrying')) === 1);
      const [delivery] = await deliveriesOf(t, owner, hook);
      const retried = await t.request('POST', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/deliveries/${delivery!.id}/retry`, { token: owner.token });
      expect(retried.status, retried.body).toBe(202);
      await until('the delivered attempt counted', async () => (await attempts('delivered')) === 1);
      expect(await attempts('retrying')).toBe(1);
      expect(await attempts('failed')).toBe(0);
      expect(receiver.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('show the database and the process', async () => {
    const now = await scrape();
    expect(now.get('lfk_database_up')).toBe(1);
    if (ENGINE === 'postgresql') {
      expect(now.get('lfk_database_connections{state="max"}')).toBeGreaterThan(0);
      expect(now.get('lfk_database_connections{state="open"}')).toBeGreaterThan(0);
    }
    expect(now.get('lfk_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(now.get('lfk_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(now.has('lfk_nodejs_eventloop_lag_seconds')).toBe(true);
  });
});

describe('metrics on a port of their own (LFK_METRICS=<port>)', () => {
  it('are served there, and not on the API port', async () => {
    const port = await freePort();
    const t = await startTestServer({ LFK_METRICS: String(port), PORT: '0' });
    try {
      const api = await t.server.listen();
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE lfk_http_requests_total counter');
      expect((await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).status).toBe(404);
      expect((await fetch(`${api}/metrics`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('refuses a value that is neither true, false nor a port', async () => {
    await expect(startTestServer({ LFK_METRICS: 'yes' })).rejects.toThrow(/LFK_METRICS: Must be true, false, or a port number/);
  });
});
