/**
 * Email: verification emails delivered by SMTP.
 */
import { describe, expect, it } from 'vitest';
import { until } from '@lfk/server/testing';
import {
  address,
  createKeyForm,
  EMAIL_FROM,
  emailsTo,
  expectHtml,
  expectLinkGone,
  isVerified,
  keyOwner,
  linkIn,
  openAndVerify,
  outboxTo,
  useServerWithSmtpPeer,
  waitForEmails,
} from './fixtures.ts';

describe('verification emails by SMTP', () => {
  const { t, peer } = useServerWithSmtpPeer();

  it('an anonymous form sends a verification email; its link verifies once, then answers a 404 page', async () => {
    const to = address('anon');
    const created = await t.request('POST', '/v1/forms', {
      body: { name: 'Newsletter signup', schema: [{ name: 'email', type: 'email', required: true }], notify_email: to },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ state: 'unclaimed', notify_email: to, notify_email_verified: false });

    const [email] = await waitForEmails(peer, to);
    expect(email!.envelopeTo).toEqual([to]);
    expect(email!.envelopeFrom).toBe('forms@lfk.test');
    expect(email!.headers.get('from')).toBe(EMAIL_FROM);
    expect(email!.headers.get('to')).toBe(to);
    expect(email!.subject).toContain('Newsletter signup');
    const link = linkIn(email!.text);
    expect(await isVerified(t, created.json.id)).toBe(false);

    const followed = await openAndVerify(t, link);
    expect(followed.status).toBe(200);
    expectHtml(followed);
    expect(followed.body).toContain(to);

    // Claimed into a workspace, the form shows its address verified.
    const owner = await t.signup();
    const claimed = await t.request('POST', `/v1/forms/${created.json.id}/claim`, {
      token: owner.token,
      body: { claim_token: created.json.claim_token, workspace_id: owner.workspaceId },
    });
    expect(claimed.status).toBe(200);
    expect(claimed.json).toMatchObject({ notify_email: to, notify_email_verified: true, state: 'claimed' });
    const read = await t.request('GET', `/v1/forms/${created.json.id}`, { token: owner.token });
    expect(read.json.notify_email_verified).toBe(true);

    await expectLinkGone(t, link.path);
    expect(emailsTo(peer, to)).toHaveLength(1);
  });

  it('unknown and malformed verification links answer a 404 page', async () => {
    for (const token of [`lfv_${'A'.repeat(43)}`, 'lfv_short', 'not-a-token']) {
      const res = await t.request('GET', `/v1/email-verifications/${token}`);
      expect(res.status).toBe(404);
      expectHtml(res);
    }
  });

  it('a key-created form sends a verification email; resending inside the interval is 429 with Retry-After', async () => {
    const { key } = await keyOwner(t);
    const to = address('keyform');
    const form = await createKeyForm(t, key, { name: 'Quote request', notify_email: to });
    expect(form).toMatchObject({ state: 'claimed', notify_email: to, notify_email_verified: false });
    const [email] = await waitForEmails(peer, to);
    expect(email!.subject).toContain('Quote request');
    linkIn(email!.text);

    const resend = await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: key });
    expect(resend.status).toBe(429);
    expect(resend.json.error.code).toBe('rate_limited');
    const retryAfter = String(resend.headers['retry-after']);
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // Nothing more was queued.
    expect(await outboxTo(t, to)).toHaveLength(1);
  });

  it('resending is refused with 409 once verified, and for a form without notify_email', async () => {
    const { key } = await keyOwner(t);
    const to = address('done');
    const form = await createKeyForm(t, key, { notify_email: to });
    const [email] = await waitForEmails(peer, to);
    expect((await openAndVerify(t, linkIn(email!.text))).status).toBe(200);

    const verified = await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: key });
    expect(verified.status).toBe(409);
    expect(verified.json.error.code).toBe('email_already_verified');

    const bare = await createKeyForm(t, key, {});
    const none = await t.request('POST', `/v1/forms/${bare.id}/resend-verification`, { token: key });
    expect(none.status).toBe(409);
    expect(none.json.error.code).toBe('no_notify_email');
    expect(await outboxTo(t, to)).toHaveLength(1);
  });

  it('PATCHing notify_email sends a verification to the new address; the old unused link no longer verifies', async () => {
    const { key } = await keyOwner(t);
    const before = address('before');
    const after = address('after');
    const form = await createKeyForm(t, key, { name: 'Moving form', notify_email: before });
    const [first] = await waitForEmails(peer, before);
    const oldLink = linkIn(first!.text);

    const patched = await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { notify_email: after } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ notify_email: after, notify_email_verified: false });
    const [second] = await waitForEmails(peer, after);
    expect(second!.subject).toContain('Moving form');
    const newLink = linkIn(second!.text);
    expect(newLink.token).not.toBe(oldLink.token);

    await expectLinkGone(t, oldLink.path);
    expect(await isVerified(t, form.id)).toBe(false);

    expect((await openAndVerify(t, newLink)).status).toBe(200);
    const read = await t.request('GET', `/v1/forms/${form.id}`, { token: key });
    expect(read.json).toMatchObject({ notify_email: after, notify_email_verified: true });
    expect(emailsTo(peer, before)).toHaveLength(1);
  });

  it('PATCHing a verified address to another resets verification; null clears it without an email', async () => {
    const { key } = await keyOwner(t);
    const first = address('first');
    const second = address('second');
    const form = await createKeyForm(t, key, { notify_email: first });
    const [email] = await waitForEmails(peer, first);
    expect((await openAndVerify(t, linkIn(email!.text))).status).toBe(200);
    expect(await isVerified(t, form.id)).toBe(true);

    const moved = await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { notify_email: second } });
    expect(moved.status).toBe(200);
    expect(moved.json).toMatchObject({ notify_email: second, notify_email_verified: false });
    await waitForEmails(peer, second);

    const cleared = await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { notify_email: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.json).toMatchObject({ notify_email: null, notify_email_verified: false });
    expect(await outboxTo(t, second)).toHaveLength(1);
    expect(await outboxTo(t, first)).toHaveLength(1);
  });

  it('submissions send no email while notify_email is unverified, and one listing the values once verified', async () => {
    const { key } = await keyOwner(t);
    const to = address('notify');
    const formName = 'Café feedback ✉';
    const form = await createKeyForm(t, key, {
      name: formName,
      notify_email: to,
      schema: [
        { name: 'name', type: 'text', label: 'Your name', required: true },
        { name: 'message', type: 'textarea' },
        { name: 'subscribe', type: 'checkbox' },
        { name: 'rating', type: 'number' },
      ],
    });
    const [verification] = await waitForEmails(peer, to);
    expect(verification!.subject).toContain(formName);

    const early = await t.request('POST', `/v1/forms/${form.id}/submissions`, {
      token: key,
      body: { name: 'Before verification', message: 'too early' },
    });
    expect(early.status).toBe(201);
    expect((await outboxTo(t, to)).map((row) => row.kind)).toEqual(['verification']);

    expect((await openAndVerify(t, linkIn(verification!.text))).status).toBe(200);

    const name = 'Zoë Ærøskøbing 山田 🌍';
    const sent = await t.request('POST', `/v1/forms/${form.id}/submissions`, {
      token: key,
      body: { name, message: 'Line one\nLínea dos — ñ', subscribe: 'on', rating: '4.5' },
    });
    expect(sent.status).toBe(201);

    const emails = await waitForEmails(peer, to, 2);
    const notification = emails[1]!;
    expect(notification.subject).toContain(formName);
    expect(notification.headers.get('from')).toBe(EMAIL_FROM);
    expect(notification.text).toContain(`Your name: ${name}`);
    expect(notification.text).toContain('Line one');
    expect(notification.text).toContain('Línea dos — ñ');
    expect(notification.text).toContain('subscribe: true');
    expect(notification.text).toContain('rating: 4.5');
    expect(notification.text).toContain(sent.json.id);
    expect(notification.text).not.toContain('Before verification');

    const rows = await until('the submission email marked sent', async () => {
      const found = await outboxTo(t, to);
      return found.length === 2 && found[1]!.status === 'sent' ? found : undefined;
    });
    expect(rows.map((row) => row.kind)).toEqual(['verification', 'submission']);
    expect(rows[1]!.body).toBeNull();
    expect(emailsTo(peer, to)).toHaveLength(2);
  });

  it('a sent email leaves its outbox row sent with no body, and the verification token is stored only as a hash', async () => {
    const { key } = await keyOwner(t);
    const to = address('outbox');
    const form = await createKeyForm(t, key, { notify_email: to });
    const [email] = await waitForEmails(peer, to);
    const { token } = linkIn(email!.text);

    const rows = await until('the verification email marked sent', async () => {
      const found = await outboxTo(t, to);
      return found[0]?.status === 'sent' ? found : undefined;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'verification', to, status: 'sent', body: null, attempts: 1, last_error: null });
    expect(rows[0]!.sent_at).not.toBeNull();
    expect(email!.headers.get('x-lfk-email-id')).toBe(rows[0]!.id);

    const allOutbox = JSON.stringify(await t.sql('select * from outbox_emails'));
    expect(allOutbox).not.toContain(token);
    expect(allOutbox).not.toContain(token.slice(4));

    const links = await t.sql<{ token_hash: string; email: string }>('select * from email_verifications where form_id = ?', [form.id]);
    expect(links).toHaveLength(1);
    expect(links[0]!.email).toBe(to);
    expect(links[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const allLinks = JSON.stringify(await t.sql('select * from email_verifications'));
    expect(allLinks).not.toContain(token);
    expect(allLinks).not.toContain(token.slice(4));
  });
});
