/**
 * Webhooks delivered: signed by Standard Webhooks (checked from the receiver's side with the
 * `standardwebhooks` package and with `@lfk/client`'s `verifyWebhook`), retried with the same
 * `webhook-id`, disabled by 410 or by 3 days of failures, paused and resumed, and the secret
 * rotated with both secrets signing for a while.
 */
import { verifyWebhook } from '@lfk/client';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ORIGIN, type Receiver, startReceiver, startTestServer, until, useTestServer } from '@lfk/server/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf, formWithWebhook, loggedFirstAttempt, submitTo, withAttemptInFlight } from './fixtures.ts';

// Attempts may take as long as a test does: a hanging receiver holds them until it is closed, however loaded the machine.
const t = useTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50, timeoutMs: 600_000 } });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** Requests the receiver got carrying `webhook-id` = `eventId`. */
const requestsFor = (eventId: string) => receiver.received.filter((r) => r.headers['webhook-id'] === eventId);

describe('a submission is delivered, signed', () => {
  it('reaches the receiver with Standard Webhooks headers that verify with the secret', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const submissionId = await submitTo(t, hook.formId, { name: 'Ada', email: 'ada@example.com', message: 'Hello' });

    const [delivery] = await until('the delivery to succeed', async () => {
      const log = await deliveriesOf(t, owner, hook);
      return log[0]?.status === 'succeeded' ? log : undefined;
    });
    const [request] = requestsFor(delivery!.event_id);
    expect(request, 'the receiver got the event').toBeDefined();
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toMatch(/^msg_/);
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    // The receiver's side: the reference implementation, and lfk's client.
    const verified = new Webhook(hook.secret).verify(request!.body, request!.headers as Record<string, string>) as any;
    const event = verifyWebhook(hook.secret, request!.headers, request!.body);
    expect(event).toEqual(verified);
    expect(event.type).toBe('submission.created');
    if (event.type !== 'submission.created') throw new Error('unreachable');
    expect(event.data.form.id).toBe(hook.formId);
    expect(event.data.submission).toMatchObject({
      id: submissionId,
      form_id: hook.formId,
      via: 'browser',
      values: { name: 'Ada', email: 'ada@example.com', message: 'Hello' },
    });

    // Another secret, a changed body or an old timestamp do not verify.
    expect(() => verifyWebhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, request!.headers, request!.body)).toThrow();
    expect(() => verifyWebhook(hook.secret, request!.headers, request!.body.replace('Ada', 'Eve'))).toThrow();

    expect(delivery!.attempts).toHaveLength(1);
    expect(delivery!.attempts[0]).toMatchObject({ status_code: 200, error: null, response_excerpt: 'ok' });
    expect(delivery!.next_attempt_at).toBeNull();
    expect(delivery!.payload).toEqual(JSON.parse(request!.body));

    const listed = await t.request('GET', `/v1/forms/${hook.formId}/webhooks`, { token: owner.token });
    expect(listed.json.data[0]).toMatchObject({ id: hook.webhookId, last_status: 'succeeded', enabled: true });
    expect(listed.json.data[0].last_delivery_at).toBe(delivery!.attempts[0]!.at);
    expect(listed.body).not.toContain('whsec_');
  });

  it('stores the secret sealed: never its plaintext, and it reveals only to a session', async () => {
    const { owner, key } = await t.signupWithKey();
    const hook = await formWithWebhook(t, owner, receiver.url);
    const [row] = await t.sql<Record<string, unknown>>('select * from webhook_endpoints where id = ?', [hook.webhookId]);
    expect(JSON.stringify(row)).not.toContain(hook.secret.slice('whsec_'.length, 20));
    expect(String(row!.secret_sealed)).toMatch(/^v1\./);

    const revealed = await t.request('GET', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/secret`, { token: owner.token });
    expect(revealed.json).toEqual({ secret: hook.secret });
    const byKey = await t.request('GET', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/secret`, { token: key });
    expect(byKey.status).toBe(403);
    expect(byKey.json.error.code).toBe('session_required');
    expect(t.logs.join('\n')).not.toContain(hook.secret.slice('whsec_'.length));

    const audit = await t.sql<{ action: string; data: unknown }>('select action, data from audit_events where target_id = ? order by id', [hook.webhookId]);
    expect(audit.map((a) => a.action)).toEqual(['webhook.created', 'webhook.secret_revealed']);
    expect(JSON.stringify(audit)).not.toContain('whsec_');
  });
});

describe('failures', () => {
  it('retries a failed delivery with the same webhook-id, and a person can retry it now', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    receiver.answers.push({ status: 500, body: 'database down' });
    await submitTo(t, hook.formId);
    const [failed] = await until('a failed attempt', async () => {
      const log = await deliveriesOf(t, owner, hook);
      return log[0]?.attempts.length ? log : undefined;
    });
    expect(failed!.attempts[0]).toMatchObject({ status_code: 500, response_excerpt: 'database down' });
    if (failed!.attempts.length === 1) {
      // Due again about 5 s after the failure (the schedule itself: packages/api/src/features/webhooks/retry-schedule.test.ts).
      expect(failed!.status).toBe('pending');
      expect(new Date(failed!.next_attempt_at!).getTime()).toBeGreaterThan(new Date(failed!.attempts[0]!.at).getTime());
    }

    // The failure starts the endpoint's failing streak (3 days of it disable the endpoint).
    const failingSince = async () =>
      (await t.sql<{ failing_since: unknown }>('select failing_since from webhook_endpoints where id = ?', [hook.webhookId]))[0]!.failing_since;
    await until('the failing streak to be recorded', async () => (await failingSince()) !== null);

    // The automatic retry comes about 5 s after the failure: on a busy machine it may come first
    // (then the delivery is being attempted, 409, or has succeeded, and is sent once more).
    const retry = await t.request('POST', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/deliveries/${failed!.id}/retry`, { token: owner.token });
    if (retry.status !== 202) expect(retry.json.error.code).toBe('webhook_delivery_in_flight');
    await until('the retry to succeed', async () => (await deliveriesOf(t, owner, hook))[0]?.status === 'succeeded');
    // A success ends the streak (written just after the delivery is).
    await until('the failing streak to end', async () => (await failingSince()) === null);
    const requests = requestsFor(failed!.event_id);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('disables the endpoint at once on 410 Gone, tells the owners, and keeps later deliveries waiting', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    receiver.answers.push({ status: 410 });
    await submitTo(t, hook.formId);
    const endpoint = await until('the endpoint to be disabled', async () => {
      const res = await t.request('GET', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: owner.token });
      return res.json.enabled === false ? res.json : undefined;
    });
    expect(endpoint.disabled_reason).toBe('gone');
    expect((await deliveriesOf(t, owner, hook))[0]).toMatchObject({ status: 'failed', next_attempt_at: null });
    await until('the owner to be emailed', () =>
      t.logs.some((line) => line.includes('"webhook_disabled"') && line.includes(owner.email) && line.includes(hook.webhookId)),
    );
    const [event] = await t.sql<{ actor_type: string; data: { reason: string } }>(
      "select actor_type, data from audit_events where target_id = ? and action = 'webhook.disabled'",
      [hook.webhookId],
    );
    expect(event).toMatchObject({ actor_type: 'system', data: { reason: 'gone' } });

    // While disabled, submissions make no deliveries; enabling brings the endpoint back.
    await submitTo(t, hook.formId);
    expect(await t.count('webhook_deliveries where endpoint_id = ?', [hook.webhookId])).toBe(1);
    const enabled = await t.request('PATCH', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: owner.token, body: { enabled: true } });
    expect(enabled.json).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('disables an endpoint whose every delivery has failed for 3 days', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    // It has been failing for a little over 3 days, and fails once more.
    await t.sql('update webhook_endpoints set failing_since = ? where id = ?', [new Date(Date.now() - 3 * 86_400_000 - 60_000), hook.webhookId]);
    receiver.answers.push({ status: 503 });
    await submitTo(t, hook.formId);
    const endpoint = await until('the endpoint to be disabled', async () => {
      const res = await t.request('GET', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: owner.token });
      return res.json.enabled === false ? res.json : undefined;
    });
    expect(endpoint.disabled_reason).toBe('failing');
    // Its delivery is not given up: it waits, with no next attempt, until the endpoint is enabled.
    const [waiting] = await deliveriesOf(t, owner, hook);
    expect(waiting).toMatchObject({ status: 'pending', next_attempt_at: null });
    const before = requestsFor(waiting!.event_id).length;
    const res = await t.request('PATCH', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: owner.token, body: { enabled: true } });
    expect(res.status, res.body).toBe(200);
    await until('the waiting delivery to be sent', async () => (await deliveriesOf(t, owner, hook))[0]?.status === 'succeeded');
    expect(requestsFor(waiting!.event_id).length).toBe(before + 1);
  });

  it('disables a quiet endpoint once its one delivery has run out of attempts', async () => {
    // A schedule of one quick retry: the delivery runs out of attempts within the test. A database
    // of its own, so that no other server's worker (with the real schedule) takes the delivery.
    const quick = await startTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50, retryDelaysMs: [50] }, database: 'own' });
    try {
      const owner = await quick.signup();
      const hook = await formWithWebhook(quick, owner, receiver.url);
      receiver.answers.push({ status: 503 }, { status: 503 });
      await submitTo(quick, hook.formId);
      const endpoint = await until('the endpoint to be disabled', async () => {
        const res = await quick.request('GET', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: owner.token });
        return res.json.enabled === false ? res.json : undefined;
      });
      expect(endpoint.disabled_reason).toBe('failing');
      const [delivery] = await deliveriesOf(quick, owner, hook);
      expect(delivery).toMatchObject({ status: 'failed', next_attempt_at: null });
      expect(delivery!.attempts.map((a) => a.status_code)).toEqual([503, 503]);
      await until('the owner to be emailed', () => quick.logs.some((line) => line.includes('"webhook_disabled"') && line.includes(owner.email)));
    } finally {
      await quick.close();
    }
  });

  it('a redirect is a failed attempt, not followed; a 10 MB answer is read to its first KiB', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    receiver.answers.push({ status: 302, body: 'moved' }, { status: 200, body: 'x'.repeat(10 * 1024 * 1024) });
    await submitTo(t, hook.formId);
    const [first] = await until('a failed attempt', async () => {
      const log = await deliveriesOf(t, owner, hook);
      return log[0]?.attempts.length ? log : undefined;
    });
    expect(first!.attempts[0]).toMatchObject({ status_code: 302, response_excerpt: 'moved' });
    // A redirect is not followed: the receiver got one request per attempt, none at the Location.
    expect(requestsFor(first!.event_id)).toHaveLength(first!.attempts.length);
    // By hand, or by the automatic retry if a busy machine brings it first: either way the next
    // attempt gets the 10 MB answer.
    await t.request('POST', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/deliveries/${first!.id}/retry`, { token: owner.token });
    const [second] = await until('the second attempt', async () => {
      const log = await deliveriesOf(t, owner, hook);
      return log[0]?.status === 'succeeded' ? log : undefined;
    });
    expect(second!.attempts[1]!.status_code).toBe(200);
    expect(second!.attempts[1]!.response_excerpt).toBe('x'.repeat(1024));
  });
});

describe('a disabled endpoint', () => {
  it('keeps its deliveries waiting: a retry is refused, and an attempt ending after the disable schedules nothing', async () => {
    await withAttemptInFlight(t, async ({ owner, slow, hook }) => {
      const disabled = await t.request('PATCH', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: owner.token, body: { enabled: false } });
      expect(disabled.json).toMatchObject({ enabled: false, disabled_reason: 'manual' });
      // The attempt in flight fails now (its connection is cut), after the endpoint was disabled.
      await slow.close();
      const [delivery] = await loggedFirstAttempt(t, owner, hook);
      expect(delivery).toMatchObject({ status: 'pending', next_attempt_at: null });

      const retry = await t.request('POST', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/deliveries/${delivery!.id}/retry`, { token: owner.token });
      expect(retry.status).toBe(409);
      expect(retry.json.error.code).toBe('webhook_disabled');
      const [row] = await t.sql<{ next_attempt_at: unknown }>('select next_attempt_at from webhook_deliveries where id = ?', [delivery!.id]);
      expect(row!.next_attempt_at).toBeNull();

      // As the dashboard and the CLI say: a submission made while it is disabled is not sent to it.
      await submitTo(t, hook.formId);
      expect((await deliveriesOf(t, owner, hook)).map((d) => d.id)).toEqual([delivery!.id]);
    });
  });
});

describe('the events stream (what lfk listen forwards)', () => {
  it('reads from a cursor, in commit order, each event as webhooks send it', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    const start = await t.request('GET', `/v1/forms/${hook.formId}/events`, { token: owner.token });
    expect(start.json).toEqual({ data: [], cursor: expect.stringMatching(/^evc_\d+_sub_z{26}$/), has_more: false });
    const ids = [await submitTo(t, hook.formId), await submitTo(t, hook.formId)];
    // Read until both have come (on PostgreSQL another test's running transaction holds back what committed after it began).
    const all = await until('both events in the feed', async () => {
      const res = await t.request('GET', `/v1/forms/${hook.formId}/events?after=${start.json.cursor}&wait=20`, { token: owner.token });
      return res.json.data.length === 2 ? res : undefined;
    });
    expect(all.json.data.map((e: { id: string }) => e.id)).toEqual(ids.map((id) => `msg_${id.slice(4)}`));
    expect(all.json.cursor).toMatch(new RegExp(`^evc_\\d+_${ids[1]}$`));
    expect(all.json.has_more).toBe(false);
    // The payload is what the endpoint received for the same event.
    await until(
      'the deliveries',
      async () => (await deliveriesOf(t, owner, hook)).every((d) => d.status === 'succeeded') && (await deliveriesOf(t, owner, hook)).length === 2,
    );
    const [newest] = await deliveriesOf(t, owner, hook);
    expect(all.json.data[1].payload).toEqual(newest!.payload);
    expect(newest!.event_id).toBe(all.json.data[1].id);
    const later = await t.request('GET', `/v1/forms/${hook.formId}/events?after=${all.json.cursor}`, { token: owner.token });
    expect(later.json).toEqual({ data: [], cursor: all.json.cursor, has_more: false });
    // An event id, as this feed gave before cursors: the events after it.
    const fromEvent = await t.request('GET', `/v1/forms/${hook.formId}/events?after=${all.json.data[0].id}`, { token: owner.token });
    expect(fromEvent.json.data.map((e: { id: string }) => e.id)).toEqual([all.json.data[1].id]);
    for (const bogus of ['sub_123', `msg_${'0'.repeat(26)}`, 'evc_1_sub_x']) {
      const res = await t.request('GET', `/v1/forms/${hook.formId}/events?after=${bogus}`, { token: owner.token });
      expect(res.status).toBe(400);
      expect(res.json.error.details).toEqual([{ path: 'after', message: 'Not a cursor of this stream.' }]);
    }
  });
});

describe('one slow receiver', () => {
  it('holds at most a few deliveries in flight and never delays another endpoint', async () => {
    const owner = await t.signup();
    const slow = await startReceiver();
    try {
      slow.answers.push(...Array.from({ length: 100 }, () => 'hang' as const));
      const hook = await formWithWebhook(t, owner, slow.url);
      const fast = await t.request('POST', `/v1/forms/${hook.formId}/webhooks`, { token: owner.token, body: { url: receiver.url } });
      const before = receiver.received.length;
      const ids = await Promise.all(Array.from({ length: 30 }, () => submitTo(t, hook.formId)));
      // Every event reached the fast receiver while the slow one still holds its first requests.
      await receiver.waitFor(before + ids.length);
      const delivered = receiver.received.slice(before).map((r) => JSON.parse(r.body).data.submission.id);
      expect(delivered.sort()).toEqual([...ids].sort());
      expect(slow.received.length).toBeGreaterThan(0);
      expect(slow.received.length).toBeLessThanOrEqual(16);
      // The receiver has each event before its attempt is recorded: wait for the last records.
      await until('every fast delivery recorded as succeeded', async () => {
        const [row] = await t.sql<{ n: number }>("select count(*)::int as n from webhook_deliveries where endpoint_id = ? and status = 'succeeded'", [
          fast.json.id,
        ]);
        return row!.n === 30;
      });
      expect(slow.received.length).toBeLessThanOrEqual(16);
    } finally {
      await slow.close();
    }
  });
});

describe('receivers that break', () => {
  it('a reset connection and a certificate that does not verify are failed attempts, logged and retried', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    receiver.answers.push('reset');
    await submitTo(t, hook.formId);
    const [reset] = await until('the reset attempt', async () => {
      const log = await deliveriesOf(t, owner, hook);
      return log[0]?.attempts.length === 1 ? log : undefined;
    });
    expect(reset).toMatchObject({ status: 'pending', attempts: [{ status_code: null, error: expect.stringMatching(/ECONNRESET|socket|closed/i) }] });
    expect(reset!.next_attempt_at).not.toBeNull();

    // An https receiver whose certificate is self-signed: the TLS handshake fails, nothing is sent.
    const dir = mkdtempSync(join(tmpdir(), 'lfk-tls-'));
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      { stdio: 'ignore' },
    );
    let requests = 0;
    const tls = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => {
      requests++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/hook`;
      const updated = await t.request('PATCH', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: owner.token, body: { url } });
      expect(updated.status, updated.body).toBe(200);
      const test = await t.request('POST', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/test`, { token: owner.token });
      expect(test.json).toMatchObject({ status: 'failed', status_code: null, error: expect.stringMatching(/self[- ]signed|certificate/i) });
      expect(requests).toBe(0);
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a signing secret sent back as a field name or in a URL is redacted from answers and logs', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    const from = t.logs.length;
    const asField = await t.request('POST', `/v1/forms/${hook.formId}/submissions`, {
      body: { name: 'Ada', email: 'ada@example.com', [hook.secret]: 'x' },
      headers: { origin: ORIGIN },
    });
    expect(asField.status).toBe(422);
    expect(asField.json.error.details).toContainEqual({ path: 'whsec_[redacted]', message: 'Unknown field.' });
    const inUrl = await t.request('GET', `/v1/forms/${hook.formId}/webhooks?secret=${encodeURIComponent(hook.secret)}`, { token: owner.token });
    expect(inUrl.status).toBe(200);
    const body = hook.secret.slice('whsec_'.length);
    expect(t.logs.slice(from).some((line) => line.includes('whsec_[redacted]'))).toBe(true);
    expect(t.logs.slice(from).find((line) => line.includes(body) || line.includes(encodeURIComponent(body)))).toBeUndefined();
    expect(asField.body).not.toContain(body);
  });
});

describe('managing endpoints', () => {
  it('rotates the secret: both secrets sign for 24 hours, then only the new one', async () => {
    const { owner, key } = await t.signupWithKey();
    const hook = await formWithWebhook(t, owner, receiver.url);
    const rotated = await t.request('POST', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/rotate-secret`, { token: key });
    expect(rotated.status, rotated.body).toBe(201);
    const secret = rotated.json.secret as string;
    expect(secret).not.toBe(hook.secret);
    const ends = new Date(rotated.json.previous_secret_expires_at).getTime() - Date.now();
    expect(ends).toBeGreaterThan(23 * 3_600_000);

    const test = await t.request('POST', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/test`, { token: key });
    expect(test.json).toMatchObject({ status: 'succeeded', status_code: 200 });
    const request = receiver.received.at(-1)!;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(secret, request.headers, request.body).type).toBe('webhook.test');
    expect(verifyWebhook(hook.secret, request.headers, request.body).type).toBe('webhook.test');

    // Once the 24 hours are over, the old secret no longer signs.
    await t.sql(`update webhook_endpoints set previous_secrets = jsonb_set(previous_secrets, '{0,expires_at}', to_jsonb(?::text)) where id = ?`, [
      new Date(Date.now() - 1000).toISOString(),
      hook.webhookId,
    ]);
    await t.request('POST', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/test`, { token: key });
    const later = receiver.received.at(-1)!;
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyWebhook(secret, later.headers, later.body).type).toBe('webhook.test');
    expect(() => verifyWebhook(hook.secret, later.headers, later.body)).toThrow();
  });

  it('rotates twice within 24 hours: every secret rotated away signs until its own end, the endpoint lists them, and one can be ended early', async () => {
    const { owner, key } = await t.signupWithKey();
    const hook = await formWithWebhook(t, owner, receiver.url);
    const endpointPath = `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`;
    expect((await t.request('GET', endpointPath, { token: key })).json.secrets).toEqual([
      { number: 1, created_at: expect.any(String), expires_at: null, public_key: null },
    ]);
    const second = await t.request('POST', `${endpointPath}/rotate-secret`, { token: key });
    const third = await t.request('POST', `${endpointPath}/rotate-secret`, { token: key });
    expect([second.json.number, third.json.number]).toEqual([2, 3]);
    const secrets = (await t.request('GET', endpointPath, { token: key })).json.secrets as { number: number; expires_at: string | null }[];
    expect(secrets.map((s) => s.number)).toEqual([3, 2, 1]);
    expect(secrets[0]!.expires_at).toBeNull();
    expect(secrets.slice(1).every((s) => Date.parse(s.expires_at!) - Date.now() > 23 * 3_600_000)).toBe(true);
    expect(third.json.previous_secret_expires_at).toBe(secrets[1]!.expires_at);

    const signedBy = async () => {
      await t.request('POST', `${endpointPath}/test`, { token: key });
      const request = receiver.received.at(-1)!;
      return [hook.secret, second.json.secret as string, third.json.secret as string].map((secret) => {
        try {
          return verifyWebhook(secret, request.headers, request.body).type === 'webhook.test';
        } catch {
          return false;
        }
      });
    };
    expect(await signedBy()).toEqual([true, true, true]);

    // The first ended early: the others sign on.
    const ended = await t.request('DELETE', `${endpointPath}/secrets/1`, { token: key });
    expect(ended.status, ended.body).toBe(200);
    expect(ended.json.secrets.map((s: { number: number }) => s.number)).toEqual([3, 2]);
    expect(await signedBy()).toEqual([false, true, true]);
    expect(await t.count("audit_events where action = 'webhook.secret_ended' and target_id = ?", [hook.webhookId])).toBe(1);

    // Ended already, the current one (replaced by rotating), one that never was: 404.
    for (const number of ['1', '3', '99']) {
      const refused = await t.request('DELETE', `${endpointPath}/secrets/${number}`, { token: key });
      expect(refused.status, number).toBe(404);
      expect(refused.json.error.code).toBe('webhook_secret_not_found');
    }
    expect((await t.request('DELETE', `${endpointPath}/secrets/two`, { token: key })).status).toBe(400);
  });

  it('keeps at most 5 secrets rotated away: a rotation past them ends the oldest at once', async () => {
    const { owner, key } = await t.signupWithKey();
    const hook = await formWithWebhook(t, owner, receiver.url);
    const endpointPath = `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`;
    for (let i = 0; i < 7; i++) expect((await t.request('POST', `${endpointPath}/rotate-secret`, { token: key })).status).toBe(201);
    const secrets = (await t.request('GET', endpointPath, { token: key })).json.secrets as { number: number }[];
    expect(secrets.map((s) => s.number)).toEqual([8, 7, 6, 5, 4, 3]);
    await t.request('POST', `${endpointPath}/test`, { token: key });
    expect(String(receiver.received.at(-1)!.headers['webhook-signature']).split(' ')).toHaveLength(6);
  });

  it('allows 5 endpoints per form, also when 10 are added at once', async () => {
    const { owner, key } = await t.signupWithKey();
    const hook = await formWithWebhook(t, owner, receiver.url);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.request('POST', `/v1/forms/${hook.formId}/webhooks`, { token: key, body: { url: `${receiver.url}?n=${i}` } })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(4);
    for (const refused of answers.filter((r) => r.status !== 201)) {
      expect(refused.status).toBe(409);
      expect(refused.json.error.code).toBe('webhook_limit_reached');
    }
    expect(await t.count('webhook_endpoints where form_id = ?', [hook.formId])).toBe(5);
  });

  it('deletes an endpoint with its pending deliveries, and answers 404 for it afterwards', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    await t.sql(
      'insert into webhook_deliveries (id, endpoint_id, url, event_id, type, payload, status, attempts, attempt_count, next_attempt_at, created_at) ' +
        "values ('whd_01kbcdefghjkmnpqrstvwxyz01', ?, ?, 'msg_01kbcdefghjkmnpqrstvwxyz01', 'submission.created', '{}', 'pending', '[]', 0, ?, ?)",
      [hook.webhookId, receiver.url, new Date(Date.now() + 3_600_000), new Date()],
    );
    const res = await t.request('DELETE', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: owner.token });
    expect(res.status).toBe(204);
    expect(await t.count('webhook_deliveries where endpoint_id = ?', [hook.webhookId])).toBe(0);
    const gone = await t.request('GET', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}`, { token: owner.token });
    expect(gone.status).toBe(404);
    expect(gone.json.error.code).toBe('webhook_not_found');
  });

  it('refuses an unknown event type and a malformed URL, storing nothing', async () => {
    const owner = await t.signup();
    const hook = await formWithWebhook(t, owner, receiver.url);
    for (const body of [
      { url: receiver.url, events: ['form.deleted'] },
      { url: receiver.url, events: [] },
      { url: 'not a url' },
      { url: 'ftp://example.com/hook' },
      { url: 'https://user:pass@example.com/hook' },
    ]) {
      const res = await t.request('POST', `/v1/forms/${hook.formId}/webhooks`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe('invalid_request');
    }
    expect(await t.count('webhook_endpoints where form_id = ?', [hook.formId])).toBe(1);
  });
});
