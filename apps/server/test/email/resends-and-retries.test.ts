/**
 * Email: a server with immediate resends and quick retries.
 */
import { describe, expect, it } from 'vitest';
import { until } from '@lfk/server/testing';
import {
  address,
  createKeyForm,
  emailsTo,
  expectHtml,
  expectLinkGone,
  isVerified,
  keyOwner,
  linkIn,
  masked,
  nextHeld,
  openAndVerify,
  outboxTo,
  sleep,
  useServerWithSmtpPeer,
  waitForEmails,
} from './fixtures.ts';

describe('a server with immediate resends and quick retries', () => {
  const { t, peer } = useServerWithSmtpPeer({ LFK_VERIFY_RESEND_INTERVAL: '0' }, { baseDelayMs: 100, maxDelayMs: 200, maxAttempts: 3 });

  describe('resending with LFK_VERIFY_RESEND_INTERVAL=0', () => {
    it('resend answers 202 with the masked address and sends a new link that replaces the older one', async () => {
      const owner = await keyOwner(t);
      const to = address('resend');
      const form = await createKeyForm(t, owner.key, { name: 'Resent form', notify_email: to });
      const [first] = await waitForEmails(peer, to);
      const older = linkIn(first!.text);

      const resend = await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: owner.key });
      expect(resend.status).toBe(202);
      expect(resend.json).toEqual({ sent_to: masked(to), sent_to_all: [masked(to)] });
      expect(resend.json.sent_to).toMatch(/^r\*\*\*@example\.com$/);

      const emails = await waitForEmails(peer, to, 2);
      expect(emails[1]!.subject).toContain('Resent form');
      const newer = linkIn(emails[1]!.text);
      expect(newer.token).not.toBe(older.token);

      await expectLinkGone(t, older.path);
      expect(await isVerified(t, form.id)).toBe(false);

      const fresh = await openAndVerify(t, newer);
      expect(fresh.status).toBe(200);
      expectHtml(fresh);
      const read = await t.request('GET', `/v1/forms/${form.id}`, { token: owner.key });
      expect(read.json.notify_email_verified).toBe(true);

      const after = await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: owner.key });
      expect(after.status).toBe(409);
      expect(after.json.error.code).toBe('email_already_verified');
      expect(emailsTo(peer, to)).toHaveLength(2);
    });

    it('a member session may resend too, and a form without notify_email is 409 no_notify_email', async () => {
      const owner = await keyOwner(t);
      const to = address('session');
      const form = await createKeyForm(t, owner.key, { notify_email: to });
      await waitForEmails(peer, to);
      const resend = await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: owner.token });
      expect(resend.status).toBe(202);
      expect(resend.json).toEqual({ sent_to: masked(to), sent_to_all: [masked(to)] });
      await waitForEmails(peer, to, 2);

      const bare = await createKeyForm(t, owner.key, {});
      const none = await t.request('POST', `/v1/forms/${bare.id}/resend-verification`, { token: owner.key });
      expect(none.status).toBe(409);
      expect(none.json.error.code).toBe('no_notify_email');
    });
  });

  describe('outbox retries (maxAttempts 3)', () => {
    it('a refused email stays pending with growing attempts and last_error, then is delivered exactly once', async () => {
      const { key } = await keyOwner(t);
      const to = address('flaky');
      peer.decide = (recipients) => (recipients.includes(to) ? 'hold' : 'accept');
      await createKeyForm(t, key, { notify_email: to });

      // Attempt 1 is in flight: nothing failed yet.
      let held = await nextHeld(peer, to);
      let [row] = await outboxTo(t, to);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: null });
      held.settle(false);

      // Attempt 2: the first refusal is recorded, and the message is still pending.
      held = await nextHeld(peer, to);
      [row] = await outboxTo(t, to);
      expect(row).toMatchObject({ status: 'pending', attempts: 2 });
      expect(row!.last_error).toContain('try again later');
      expect(row!.body).not.toBeNull();
      held.settle(false);

      // Attempt 3 is accepted.
      held = await nextHeld(peer, to);
      [row] = await outboxTo(t, to);
      expect(row).toMatchObject({ status: 'pending', attempts: 3 });
      expect(row!.last_error).toContain('try again later');
      expect(emailsTo(peer, to)).toHaveLength(0);
      held.settle(true);

      const sent = await until('the email marked sent', async () => {
        const [found] = await outboxTo(t, to);
        return found?.status === 'sent' ? found : undefined;
      });
      expect(sent).toMatchObject({ attempts: 3, body: null, last_error: null });
      expect(sent.sent_at).not.toBeNull();
      expect(peer.rejected.filter((r) => r.includes(to))).toHaveLength(2);

      // A few more polls go by: nothing is attempted or sent again.
      await sleep(400);
      expect(peer.held.filter((h) => h.to.includes(to))).toHaveLength(0);
      const delivered = emailsTo(peer, to);
      expect(delivered).toHaveLength(1);
      expect(delivered[0]!.headers.get('x-lfk-email-id')).toBe(sent.id);
      linkIn(delivered[0]!.text);
      const [final] = await outboxTo(t, to);
      expect(final).toMatchObject({ status: 'sent', attempts: 3 });
    });

    it('an email refused on every attempt is marked failed after maxAttempts, with its last error', async () => {
      const { key } = await keyOwner(t);
      const to = address('refused');
      peer.decide = (recipients) => (recipients.includes(to) ? 'reject' : 'accept');
      await createKeyForm(t, key, { notify_email: to });

      const failed = await until('the email marked failed', async () => {
        const [row] = await outboxTo(t, to);
        return row?.status === 'failed' ? row : undefined;
      });
      expect(failed.attempts).toBe(3);
      expect(failed.last_error).toContain('try again later');
      expect(failed.sent_at).toBeNull();

      // It is not tried again.
      await sleep(400);
      const [later] = await outboxTo(t, to);
      expect(later).toMatchObject({ status: 'failed', attempts: 3 });
      expect(peer.rejected.filter((r) => r.includes(to))).toHaveLength(3);
      expect(emailsTo(peer, to)).toHaveLength(0);
    });
  });
});
