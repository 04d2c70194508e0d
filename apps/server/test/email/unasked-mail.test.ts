/**
 * Issue 50, items 5 and 6: mail lfk sends to an address someone else named. An auto-reply (text
 * its form's maker wrote, sent from lfk's address) needs a confirmed address to set, and is
 * limited per workspace and per account, besides per form and per address. Every kind of mail a
 * stranger did not ask for (a notification address's link, an invitation, an auto-reply, an
 * account's confirmation link) spends one allowance per address, whatever path queued it, and a
 * link still waiting is not sent again.
 */
import { describe, expect, it } from 'vitest';
import { type Account, expectError, linkTokenSentTo, useTestServer } from '@lfk/server/testing';
import { address } from './fixtures.ts';

const schema = [
  { name: 'name', type: 'text', required: true },
  { name: 'email', type: 'email', required: true },
];
const autoReply = { email_field: 'email', subject: 'You won a prize, {name}', text: 'Claim it at https://evil.example/claim' };

const t = useTestServer({
  LFK_RATE_LIMIT_AUTO_REPLY_RECIPIENTS: '5/1d',
  LFK_RATE_LIMIT_AUTO_REPLY_FORMS: '100/1h',
  LFK_RATE_LIMIT_AUTO_REPLY_WORKSPACES: '2/1h',
  LFK_RATE_LIMIT_AUTO_REPLY_ACCOUNTS: '3/1h',
  LFK_RATE_LIMIT_UNASKED_EMAILS: '3/1d',
});

const mailTo = (to: string, kind?: string) =>
  kind ? t.count('outbox_emails where "to" = ? and kind = ?', [to, kind]) : t.count('outbox_emails where "to" = ?', [to]);
const createForm = (token: string | undefined, body: Record<string, unknown>) =>
  t.request('POST', '/v1/forms', { ...(token ? { token } : {}), body: { name: 'Prize', schema, ...body } });
const submit = (formId: string, key: string, email: string) =>
  t.request('POST', `/v1/forms/${formId}/submissions`, { token: key, body: { name: 'Winner', email } });
const skipped = async (formId: string, token: string) => (await t.request('GET', `/v1/forms/${formId}`, { token })).json.auto_replies_skipped as number;

async function formWithAutoReply(token: string, workspaceId?: string): Promise<string> {
  const res = await createForm(token, { auto_reply: autoReply, ...(workspaceId ? { workspace_id: workspaceId } : {}) });
  expect(res.status, res.body).toBe(201);
  return res.json.id;
}

describe('an auto-reply', () => {
  it('needs a confirmed address to set or change, like keys, webhooks and invitations; turning it off does not', async () => {
    const me = await t.signupOverHttp();
    const refused = expectError(await createForm(me.token, { workspace_id: me.workspaceId, auto_reply: autoReply }), 403, 'email_not_confirmed');
    expect(refused.message).toContain('POST /v1/auth/email-verification');
    expect(await t.count("forms where workspace_id = ? and name = 'Prize'", [me.workspaceId])).toBe(0);
    const plain = await createForm(me.token, { workspace_id: me.workspaceId });
    expect(plain.status, plain.body).toBe(201);
    for (const body of [{ auto_reply: autoReply }, { auto_reply: { ...autoReply, enabled: true } }]) {
      expectError(await t.request('PATCH', `/v1/forms/${plain.json.id}`, { token: me.token, body }), 403, 'email_not_confirmed');
    }
    // The same over tRPC: one rule, whichever door.
    const trpc = await t.request('POST', '/trpc/forms.update', { token: me.token, body: { form_id: plain.json.id, auto_reply: autoReply } });
    expect(trpc.json.error.data.code).toBe('email_not_confirmed');
    expect((await t.request('GET', `/v1/forms/${plain.json.id}`, { token: me.token })).json.auto_reply).toBeNull();
    // What writes no reply stays open: removing one, or an update that does not touch it.
    expect((await t.request('PATCH', `/v1/forms/${plain.json.id}`, { token: me.token, body: { auto_reply: null, name: 'Renamed' } })).status).toBe(200);

    await t.confirmAddress(me.email);
    expect((await t.request('PATCH', `/v1/forms/${plain.json.id}`, { token: me.token, body: { auto_reply: autoReply } })).status).toBe(200);
  });

  it('is limited per workspace: more forms are not more mail', async () => {
    const { owner, key } = await t.signupWithKey();
    const forms = [await formWithAutoReply(key), await formWithAutoReply(key)];
    const people = [address('w1'), address('w2'), address('w3'), address('w4')];
    for (const [i, to] of people.entries()) expect((await submit(forms[i % 2]!, key, to)).status).toBe(201);
    // Two a workspace (this server's setting): the third and fourth are skipped, counted on their forms.
    expect(await Promise.all(people.map((to) => mailTo(to, 'auto_reply')))).toEqual([1, 1, 0, 0]);
    expect((await skipped(forms[0]!, owner.token)) + (await skipped(forms[1]!, owner.token))).toBe(2);
  });

  it('is limited per account that set it: more workspaces are not more mail', async () => {
    const { owner, key } = await t.signupWithKey();
    const second = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'Another' } });
    expect(second.status, second.body).toBe(201);
    const mine = await formWithAutoReply(key);
    const other = await formWithAutoReply(owner.token, second.json.id);
    const people = [address('a1'), address('a2'), address('a3'), address('a4')];
    // Two from the first workspace (its share), then one from the second: the account's three.
    expect((await submit(mine, key, people[0]!)).status).toBe(201);
    expect((await submit(mine, key, people[1]!)).status).toBe(201);
    const otherKey = await t.createKey(owner.token, second.json.id);
    expect((await submit(other, otherKey.key, people[2]!)).status).toBe(201);
    expect((await submit(other, otherKey.key, people[3]!)).status).toBe(201);
    expect(await Promise.all(people.map((to) => mailTo(to, 'auto_reply')))).toEqual([1, 1, 1, 0]);
    expect(await skipped(other, owner.token)).toBe(1);
  });
});

describe('mail a stranger did not ask for', () => {
  const notify = (form: string, token: string, emails: string[]) => t.request('PATCH', `/v1/forms/${form}`, { token, body: { notify_emails: emails } });

  it('sign-ups refused for a taken address spend none of its allowance: the person can still be invited', async () => {
    const taken = await t.signupOverHttp();
    for (let i = 0; i < 4; i++) {
      expectError(await t.request('POST', '/v1/auth/signup', { body: { email: taken.email, password: 'a long password' } }), 409, 'email_taken');
    }
    const owner = await t.signup();
    expect(
      (await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: taken.email, role: 'member' } })).status,
    ).toBe(202);
  });

  it('a notification address removed and added back 8 times is sent one link, which still works', async () => {
    const { owner, key } = await t.signupWithKey();
    const stranger = address('flooded');
    const form = await createForm(key, { notify_emails: [owner.email, stranger] });
    expect(form.status, form.body).toBe(201);
    for (let i = 0; i < 8; i++) {
      expect((await notify(form.json.id, key, [owner.email])).status).toBe(200);
      expect((await notify(form.json.id, key, [owner.email, stranger])).status).toBe(200);
    }
    expect(await mailTo(stranger)).toBe(1);
    // The one link sent verifies the address now on the list again.
    const token = await linkTokenSentTo(t, stranger, 'verification');
    const verified = await t.request('POST', `/v1/email-verifications/${token}`, { raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(verified.status, verified.body).toBe(200);
    expect((await t.request('GET', `/v1/forms/${form.json.id}`, { token: key })).json.verified_notify_emails).toContain(stranger);
  });

  it('an address named by four forms gets three links (this server’s allowance); the fourth create is refused and makes nothing', async () => {
    const stranger = address('named');
    for (let i = 0; i < 3; i++) expect((await createForm(undefined, { notify_email: stranger, allowed_origins: ['https://a.example'] })).status).toBe(201);
    const before = await t.count('forms');
    const refused = await createForm(undefined, { notify_email: stranger });
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.count('forms')).toBe(before);
    expect(await mailTo(stranger)).toBe(3);
  });

  it('every path to the address spends the one allowance: an invitation, a link, an auto-reply; then a resend is refused and a reply skipped', async () => {
    const { owner, key } = await t.signupWithKey();
    const stranger = address('every-path');
    expect(
      (await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: stranger, role: 'member' } })).status,
    ).toBe(202);
    const notified = await createForm(key, { notify_emails: [stranger] });
    expect(notified.status, notified.body).toBe(201);
    const replying = await formWithAutoReply(key);
    expect((await submit(replying, key, stranger)).status).toBe(201);
    expect(await mailTo(stranger)).toBe(3);

    await t.sql("update forms set verification_sent_at = now() - interval '1 day' where id = ?", [notified.json.id]);
    expectError(await t.request('POST', `/v1/forms/${notified.json.id}/resend-verification`, { token: key }), 429, 'rate_limited');
    expectError(
      await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: stranger, role: 'owner' } }),
      429,
      'rate_limited',
    );
    expect((await submit(replying, key, stranger)).status).toBe(201);
    expect(await skipped(replying, owner.token)).toBe(1);
    expect(await mailTo(stranger)).toBe(3);
  });

  it('an account signed up with a flooded address is made, without its link; asking again is refused until the allowance returns', async () => {
    const stranger = address('signup');
    for (let i = 0; i < 3; i++) expect((await createForm(undefined, { notify_email: stranger })).status).toBe(201);
    const me: Account = await t.signupOverHttp(stranger);
    expect(me.userId).toMatch(/^usr_/);
    expect(await mailTo(stranger, 'account_verification')).toBe(0);
    expectError(await t.request('POST', '/v1/auth/email-verification', { token: me.token }), 429, 'rate_limited');
    expect(await mailTo(stranger)).toBe(3);
  });
});
