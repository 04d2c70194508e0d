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

  it('an auto-reply is printed with its headers (To, Reply-To, List-Unsubscribe) and both bodies', async () => {
    const { owner, key } = await t.signupWithKey();
    const created = await t.request('POST', '/v1/forms', {
      token: key,
      body: {
        name: 'Printed',
        schema: [
          { name: 'email', type: 'email', required: true },
          { name: 'note', type: 'text' },
        ],
        notify_email: owner.email,
        auto_reply: { email_field: 'email', subject: 'Got it', text: 'You wrote: {note}' },
      },
    });
    expect(created.status, created.body).toBe(201);
    const to = address('printed');
    expect((await t.request('POST', `/v1/forms/${created.json.id}/submissions`, { token: key, body: { email: to, note: '<i>hi</i>' } })).status).toBe(201);
    const line = await until('the auto-reply in the log', () => t.logs.map((raw) => JSON.parse(raw)).find((entry) => entry?.email?.to === to));
    const message = String(line.msg);
    expect(message).toContain(`To: ${to}\nReply-To: ${owner.email}\nSubject: Got it\nList-Unsubscribe: <http://lfk.test/v1/auto-reply-stops/lfu_`);
    expect(message).toContain('\nYou wrote: <i>hi</i>\n');
    expect(message).toContain('--- the same, as HTML ---\n<!doctype html>');
    expect(message).toContain('<p>You wrote: &lt;i&gt;hi&lt;/i&gt;</p>');
    expect(line.email).toMatchObject({ kind: 'auto_reply', reply_to: owner.email });
    expect(line.email.list_unsubscribe).toMatch(/^http:\/\/lfk\.test\/v1\/auto-reply-stops\/lfu_/);
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
