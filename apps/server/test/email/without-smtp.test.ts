/**
 * Email: without SMTP_URL, mail is written to the log.
 */
import { describe, expect, it } from 'vitest';
import { until, useTestServer } from '@lfk/server/testing';
import { address, isVerified, linkIn, openAndVerify, outboxTo } from './fixtures.ts';

describe('without SMTP_URL', () => {
  const t = useTestServer({}, { outbox: { pollMs: 50 } });

  it('the email is printed to the log, link included, and the link works', async () => {
    const to = address('logged');
    const created = await t.request('POST', '/v1/forms', {
      body: { name: 'Local form', schema: [{ name: 'email', type: 'email' }], notify_email: to },
    });
    expect(created.status).toBe(201);

    const line = await until('the email in the log', () =>
      t.logs
        .map((raw) => {
          try {
            return JSON.parse(raw);
          } catch {
            return undefined;
          }
        })
        .find((entry) => entry?.email?.to === to),
    );
    expect(String(line.msg).startsWith('email to')).toBe(true);
    expect(line.email).toMatchObject({ kind: 'verification', to });
    expect(line.email.subject).toContain('Local form');
    const link = linkIn(line.email.text);

    const row = await until('the logged email marked sent', async () => {
      const [found] = await outboxTo(t, to);
      return found?.status === 'sent' ? found : undefined;
    });
    expect(row.body).toBeNull();
    expect(line.email.id).toBe(row.id);

    const followed = await openAndVerify(t, link);
    expect(followed.status).toBe(200);
    expect(await isVerified(t, created.json.id)).toBe(true);
  });
});

describe('without SMTP_URL, at LOG_LEVEL=warn', () => {
  const t = useTestServer({ LOG_LEVEL: 'warn' }, { outbox: { pollMs: 50 } });

  it("the email is still printed (it is how a person follows its link), while the requests' info lines are not", async () => {
    const to = address('quiet');
    const created = await t.request('POST', '/v1/forms', {
      body: { name: 'Quiet form', schema: [{ name: 'email', type: 'email' }], notify_email: to },
    });
    expect(created.status).toBe(201);
    const line = await until('the email in the log', () => t.logs.map((raw) => JSON.parse(raw)).find((entry) => entry?.email?.to === to));
    expect(linkIn(line.email.text).path).toMatch(/^\/v1\/email-verifications\/lfv_/);
    expect(t.logs.map((raw) => JSON.parse(raw)).filter((entry) => entry.msg === 'request completed')).toEqual([]);
  });
});
