/**
 * An account's own address is confirmed by a link sent at sign-up (opening it changes nothing; its
 * button verifies). A form's notify_email equal to a verified account address of a member of its
 * workspace needs no verification of its own.
 */
import { emailsSentTo, expectError, linkTokenSentTo, PASSWORD, until, useTestServer } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';

const t = useTestServer({ LFK_VERIFY_RESEND_INTERVAL: '60' });

async function signUp() {
  const email = `person-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const res = await t.request('POST', '/v1/auth/signup', { body: { email, password: PASSWORD } });
  expect(res.status, res.body).toBe(201);
  return { email, token: res.json.session_token as string, workspaceId: res.json.workspace.id as string, user: res.json.user };
}
const verified = async (token: string) => (await t.request('GET', '/v1/auth/session', { token })).json.user.email_verified as boolean;
const confirm = (token: string) =>
  t.request('POST', `/v1/email-verifications/${token}`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: '' });
const formNotifying = (key: string, email: string) =>
  t.request('POST', '/v1/forms', { token: key, body: { name: 'Leads', schema: [{ name: 'email', type: 'email' }], notify_email: email } });

describe("an account's address", () => {
  it('sign-up emails a link; opening it changes nothing; its button verifies once', async () => {
    const me = await signUp();
    expect(me.user.email_verified).toBe(false);
    const token = await linkTokenSentTo(t, me.email, 'account_verification');
    const page = await t.request('GET', `/v1/email-verifications/${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`Confirm ${me.email} as the address of your lfk account?`);
    expect(await verified(me.token)).toBe(false);
    const done = await confirm(token);
    expect(done.status).toBe(200);
    expect(done.body).toContain('is confirmed as the address of your lfk account');
    expect(await verified(me.token)).toBe(true);
    expect((await confirm(token)).status).toBe(404);
  });

  it('a new link on request, not more often than the interval, and none once verified', async () => {
    const me = await signUp();
    const first = await linkTokenSentTo(t, me.email, 'account_verification');
    // Sign-up's own email counts: asking at once is too soon.
    expectError(await t.request('POST', '/v1/auth/email-verification', { token: me.token }), 429, 'rate_limited');
    await t.sql("update email_verifications set created_at = created_at - interval '2 minutes' where email = ?", [me.email]);
    const again = await t.request('POST', '/v1/auth/email-verification', { token: me.token });
    expect(again.status).toBe(202);
    expect(again.json.sent_to).toMatch(/^p\*\*\*@example\.com$/);
    const second = await linkTokenSentTo(t, me.email, 'account_verification', 2);
    expect((await confirm(first)).status).toBe(404);
    expect((await confirm(second)).status).toBe(200);
    await t.sql("update email_verifications set created_at = created_at - interval '2 minutes' where email = ?", [me.email]);
    expectError(await t.request('POST', '/v1/auth/email-verification', { token: me.token }), 409, 'email_already_verified');
  });
});

describe("a form's notify_email and its workspace's members", () => {
  it("a member's verified address is verified at once: no email is sent to it", async () => {
    const me = await signUp();
    await confirm(await linkTokenSentTo(t, me.email, 'account_verification'));
    const { key } = await t.createKey(me.token, me.workspaceId);
    const form = await formNotifying(key, me.email);
    expect(form.json.notify_email_verified).toBe(true);
    const changed = await t.request('PATCH', `/v1/forms/${form.json.id}`, { token: key, body: { notify_email: 'elsewhere@example.com' } });
    expect(changed.json.notify_email_verified).toBe(false);
    const back = await t.request('PATCH', `/v1/forms/${form.json.id}`, { token: key, body: { notify_email: me.email.toUpperCase() } });
    expect(back.json.notify_email_verified).toBe(true);
    expect(emailsSentTo(t, me.email, 'verification')).toEqual([]);
  });

  it("a form made before the account was verified, notifying the account's own address, gets no link of its own and is verified with it", async () => {
    const me = await signUp();
    // Signed in: an account whose address is not confirmed yet makes forms, but no keys.
    const before = await t.request('POST', '/v1/forms', {
      token: me.token,
      body: { workspace_id: me.workspaceId, name: 'Leads', schema: [{ name: 'email', type: 'email' }], notify_email: me.email },
    });
    expect(before.status, before.body).toBe(201);
    expect(before.json.notify_email_verified).toBe(false);
    await confirm(await linkTokenSentTo(t, me.email, 'account_verification'));
    expect((await t.request('GET', `/v1/forms/${before.json.id}`, { token: me.token })).json.notify_email_verified).toBe(true);
    // One link to follow, the account's: the form's address waited for it.
    await until('every queued email printed', async () => (await t.count('outbox_emails where sent_at is null')) === 0);
    expect(emailsSentTo(t, me.email).map((email) => email.kind)).toEqual(['account_verification']);
  });

  it('the verified address of someone outside the workspace verifies nothing', async () => {
    const outsider = await signUp();
    await confirm(await linkTokenSentTo(t, outsider.email, 'account_verification'));
    const other = await t.signup();
    const { key } = await t.createKey(other.token, other.workspaceId);
    const form = await formNotifying(key, outsider.email);
    expect(form.json.notify_email_verified).toBe(false);
    await linkTokenSentTo(t, outsider.email, 'verification');
  });
});
