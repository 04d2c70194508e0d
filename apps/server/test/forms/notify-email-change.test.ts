/**
 * Changing a form's notify_email never silently stops its notifications: until the new address is
 * verified, the address that was verified keeps getting them, and the form says so
 * (`notifications_to`). Going back to that address needs no verification; removing the address
 * stops them; an address never verified hands nothing on.
 */
import { createContactForm, emailsSentTo, ORIGIN, submit, until, useTestServer, VALID, verificationTokenSentTo } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';

const t = useTestServer();

let counter = 0;
const address = (who: string) => `${who}-${++counter}-${Date.now()}@example.net`;

/** Submits once and answers the addresses its notification went to (emails of kind `submission` whose text names it). */
async function notifiedBy(formId: string): Promise<string[]> {
  const res = await submit(t, formId, VALID, { origin: ORIGIN });
  expect(res.status, res.body).toBe(201);
  const sent = await t.sql<{ to: string }>(`select "to" from outbox_emails where kind = 'submission' and submission_id = ?`, [res.json.id]);
  return sent.map((row) => row.to);
}

async function verify(to: string, count = 1): Promise<void> {
  const token = await until(`the verification email to ${to}`, async () => {
    const sent = emailsSentTo(t, to, 'verification');
    return sent.length >= count ? verificationTokenSentTo(t, to) : undefined;
  });
  const res = await t.request('POST', `/v1/email-verifications/${token}`, { headers: { accept: 'application/json' } });
  expect(res.status, res.body).toBe(200);
}

describe('changing notify_email', () => {
  it('keeps notifying the verified address until the new one is verified, and says so', async () => {
    const owner = await t.signup();
    const before = address('before');
    const after = address('after');
    const form = await createContactForm(t, owner, { notify_email: before });
    await verify(before);
    expect(await notifiedBy(form.id)).toEqual([before]);

    const changed = await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { notify_email: after } });
    expect(changed.status, changed.body).toBe(200);
    expect(changed.json).toMatchObject({ notify_email: after, notify_email_verified: false, notifications_to: before });
    expect(await notifiedBy(form.id)).toEqual([before]);

    await verify(after);
    const read = await t.request('GET', `/v1/forms/${form.id}`, { token: owner.token });
    expect(read.json).toMatchObject({ notify_email: after, notify_email_verified: true, notifications_to: after });
    expect(await notifiedBy(form.id)).toEqual([after]);
  });

  it('going back to the address still notified needs no verification; changing again keeps the same one', async () => {
    const owner = await t.signup();
    const first = address('first');
    const form = await createContactForm(t, owner, { notify_email: first });
    await verify(first);
    const patch = (notify_email: string | null) => t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { notify_email } });

    expect((await patch(address('second'))).json.notifications_to).toBe(first);
    // A second change before the first was verified: the verified address still carries on.
    expect((await patch(address('third'))).json.notifications_to).toBe(first);
    const back = await patch(first);
    expect(back.json).toMatchObject({ notify_email: first, notify_email_verified: true, notifications_to: first });
    expect(emailsSentTo(t, first, 'verification')).toHaveLength(1);
    expect(await notifiedBy(form.id)).toEqual([first]);
  });

  it('removing it stops notifications; an address never verified hands nothing on', async () => {
    const owner = await t.signup();
    const verified = address('verified');
    const form = await createContactForm(t, owner, { notify_email: verified });
    await verify(verified);
    const removed = await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { notify_email: null } });
    expect(removed.json).toMatchObject({ notify_email: null, notify_email_verified: false, notifications_to: null });
    expect(await notifiedBy(form.id)).toEqual([]);

    const unverified = await createContactForm(t, owner, { notify_email: address('never') });
    const moved = await t.request('PATCH', `/v1/forms/${unverified.id}`, { token: owner.token, body: { notify_email: address('elsewhere') } });
    expect(moved.json).toMatchObject({ notify_email_verified: false, notifications_to: null });
    expect(await notifiedBy(unverified.id)).toEqual([]);
  });
});
