/**
 * Account pre-hijacking (Sudhodanan and Paverd, USENIX Security 2022): someone signs up with
 * another person's address and hands out reach (API keys, webhooks, owners) before the address's
 * owner takes the account back with a password reset. Until its address is confirmed an account
 * hands out nothing; a reset that confirms the address for the first time takes back whatever the
 * account handed out before, and tells the owner what.
 */
import { restRoutes } from '@lfk/api';
import { type Account, createContactForm, emailsSentTo, expectError, linkTokenSentTo, until, useTestServer } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';

const t = useTestServer();
const NEW_PASSWORD = 'the real owner chose this one';

const unique = (what: string) => `${what}-${Math.random().toString(36).slice(2, 10)}@example.com`;
const confirmAddress = (token: string) =>
  t.request('POST', `/v1/email-verifications/${token}`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: '' });
const addWebhook = (token: string, formId: string, url: string) => t.request('POST', `/v1/forms/${formId}/webhooks`, { token, body: { url } });
const invite = (who: Account, email: string, role = 'member') =>
  t.request('POST', `/v1/workspaces/${who.workspaceId}/invitations`, { token: who.token, body: { email, role } });
const readForm = (token: string, formId: string) => t.request('GET', `/v1/forms/${formId}`, { token });

/** The owner of the address asks for a reset link and sets a new password with it. */
async function takeBack(email: string): Promise<void> {
  expect((await t.request('POST', '/v1/auth/password-resets', { body: { email } })).status).toBe(202);
  const link = await linkTokenSentTo(t, email, 'password_reset');
  const res = await t.request('POST', `/v1/auth/password-resets/${link}`, { body: { password: NEW_PASSWORD } });
  expect(res.status, res.body).toBe(204);
}

/** The password-changed notices sent to `email`, once the mailer (which runs after the reset's answer) has sent one. */
const changedNotices = (email: string) =>
  until('the password-changed notice to be sent', () => {
    const sent = emailsSentTo(t, email, 'password_changed');
    return sent.length > 0 && sent;
  });

/** An account from before confirmation was needed, which never confirmed its address. */
const neverConfirmed = (account: Account) => t.sql('update users set email_verified_at = null where id = ?', [account.userId]);

describe('until its address is confirmed', () => {
  it('an account just signed up makes no key, adds no webhook and invites nobody, and is told how to confirm', async () => {
    const me = await t.signupOverHttp();
    const form = await createContactForm(t, me);
    const friend = unique('friend');
    const asks = {
      key: () => t.request('POST', `/v1/workspaces/${me.workspaceId}/api-keys`, { token: me.token, body: { name: 'ci' } }),
      webhook: () => addWebhook(me.token, form.id, 'https://receiver.invalid/hook'),
      invitation: () => invite(me, friend, 'owner'),
    };
    for (const ask of Object.values(asks)) {
      const refused = expectError(await ask(), 403, 'email_not_confirmed');
      expect(refused.message).toContain('open the link emailed to you at sign-up');
      expect(refused.message).toContain('POST /v1/auth/email-verification');
    }
    expect(await t.count('api_keys where workspace_id = ?', [me.workspaceId])).toBe(0);
    expect(await t.count('webhook_endpoints where form_id = ?', [form.id])).toBe(0);
    expect(await t.count('invitations where workspace_id = ?', [me.workspaceId])).toBe(0);
    expect(emailsSentTo(t, friend)).toEqual([]);
    // The same over tRPC: one rule, whichever door.
    const trpc = await t.request('POST', '/trpc/apiKeys.create', { token: me.token, body: { workspace_id: me.workspaceId } });
    expect(trpc.status).toBe(403);
    expect(trpc.json.error.data.code).toBe('email_not_confirmed');

    // Confirmed with the link sent at sign-up, the same account does all three.
    expect((await confirmAddress(await linkTokenSentTo(t, me.email, 'account_verification'))).status).toBe(200);
    expect((await asks.key()).status).toBe(201);
    expect((await asks.webhook()).status).toBe(201);
    expect((await asks.invitation()).status).toBe(202);
  });

  it('an account from before the rule keeps what it has but makes no more: no roll, no resend', async () => {
    const me = await t.signup();
    const { key, id } = await t.createKey(me.token, me.workspaceId);
    const sent = await invite(me, unique('colleague'));
    await neverConfirmed(me);
    expectError(await t.request('POST', `/v1/workspaces/${me.workspaceId}/api-keys/${id}/roll`, { token: me.token, body: {} }), 403, 'email_not_confirmed');
    expectError(
      await t.request('POST', `/v1/workspaces/${me.workspaceId}/invitations/${sent.json.id}/resend`, { token: me.token }),
      403,
      'email_not_confirmed',
    );
    // A key is the workspace's: it works until a reset that confirms the address takes it back.
    const form = await createContactForm(t, me);
    expect((await addWebhook(key, form.id, 'https://receiver.invalid/by-key')).status).toBe(201);
    // Reading and managing what exists needs no confirmation.
    expect((await t.request('GET', `/v1/workspaces/${me.workspaceId}/api-keys`, { token: me.token })).status).toBe(200);
    expect((await t.request('DELETE', `/v1/workspaces/${me.workspaceId}/invitations/${sent.json.id}`, { token: me.token })).status).toBe(204);
  });

  it('guards exactly the routes that hand out reach, and says so in each route’s documented errors', () => {
    const guarded = restRoutes.filter((r) => r.errors.includes('email_not_confirmed')).map((r) => `${r.method} ${r.path}`);
    expect(guarded.sort()).toEqual(
      [
        'POST /v1/workspaces/:workspace_id/api-keys',
        'POST /v1/workspaces/:workspace_id/api-keys/:key_id/roll',
        'POST /v1/workspaces/:workspace_id/invitations',
        'POST /v1/workspaces/:workspace_id/invitations/:invitation_id/resend',
        'POST /v1/forms/:form_id/webhooks',
        // Setting an auto-reply (issue 50): mail the account writes, sent to strangers.
        'POST /v1/forms',
        'PATCH /v1/forms/:form_id',
      ].sort(),
    );
  });
});

describe('a password reset that confirms the address for the first time', () => {
  it('takes back the keys, webhooks and invitations the account handed out before, and tells the owner what', async () => {
    const victim = unique('victim');
    const accomplice = unique('accomplice');
    // Someone else signed up with the victim's address before confirmation was needed to hand out reach.
    const squatter = await t.signup(victim);
    const coOwner = await t.signup();
    await t.addMember(squatter.workspaceId, coOwner.email, 'owner');
    const { key, id: keyId } = await t.createKey(squatter.token, squatter.workspaceId, 'squatter key');
    const { key: coOwnersKey } = await t.createKey(coOwner.token, squatter.workspaceId, 'co-owner key');
    const form = await createContactForm(t, squatter);
    for (const [token, url] of [
      [squatter.token, 'https://by-session.invalid/hook'],
      [key, 'https://by-key.invalid/hook'],
      [coOwnersKey, 'https://by-co-owner.invalid/hook'],
    ] as const) {
      expect((await addWebhook(token, form.id, url)).status).toBe(201);
    }
    expect((await invite(squatter, accomplice, 'owner')).status).toBe(202);
    const accompliceLink = await linkTokenSentTo(t, accomplice, 'invitation');
    await neverConfirmed(squatter);
    // Used once before the reset, so this server holds the key as good in its cache.
    expect((await readForm(key, form.id)).status).toBe(200);
    const prefix = (await t.sql<{ prefix: string }>('select prefix from api_keys where id = ?', [keyId]))[0]!.prefix;

    await takeBack(victim);

    // The key is refused at once, as any revoked key; the co-owner's key stays.
    expectError(await readForm(key, form.id), 401, 'invalid_api_key');
    expect((await readForm(coOwnersKey, form.id)).status).toBe(200);
    const [stored] = await t.sql<{ revoked_reason: string; revoked_by_id: string | null }>('select revoked_reason, revoked_by_id from api_keys where id = ?', [
      keyId,
    ]);
    expect(stored).toEqual({ revoked_reason: 'revoked', revoked_by_id: null });
    // The webhooks the account and its key added are gone; the co-owner's stays.
    const hooks = await t.request('GET', `/v1/forms/${form.id}/webhooks`, { token: coOwnersKey });
    expect(hooks.json.data.map((h: { url: string }) => h.url)).toEqual(['https://by-co-owner.invalid/hook']);
    // The invited owner cannot join; the squatter's session is over.
    const accompliceAccount = await t.signup(accomplice);
    expectError(await t.request('POST', `/v1/invitations/${accompliceLink}/accept`, { token: accompliceAccount.token }), 404, 'invitation_not_found');
    expect(await t.count('invitations where workspace_id = ?', [squatter.workspaceId])).toBe(0);
    expectError(await t.request('GET', '/v1/auth/session', { token: squatter.token }), 401, 'invalid_session');

    // The owner signs in, and the audit log says lfk took each back, and why.
    const owner = await t.request('POST', '/v1/auth/login', { body: { email: victim, password: NEW_PASSWORD } });
    expect(owner.json.user.email_verified).toBe(true);
    const events = (await t.request('GET', `/v1/workspaces/${squatter.workspaceId}/audit-events`, { token: owner.json.session_token })).json.data;
    const bySystem = events.filter((e: { actor: { type: string } }) => e.actor.type === 'system');
    const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    expect(bySystem.map((e: { action: string; data: object }) => [e.action, e.data]).sort(byJson)).toEqual(
      [
        ['api_key.revoked', { reason: 'account_reclaimed' }],
        ['invitation.cancelled', { email: accomplice, reason: 'account_reclaimed' }],
        ['webhook.deleted', { form_id: form.id, host: 'by-key.invalid', reason: 'account_reclaimed' }],
        ['webhook.deleted', { form_id: form.id, host: 'by-session.invalid', reason: 'account_reclaimed' }],
      ].sort(byJson),
    );
    // One email tells the owner what was taken back: names, prefixes and hosts, never a secret.
    const notices = await changedNotices(victim);
    expect(notices).toHaveLength(1);
    const text = notices[0]!.text;
    expect(text).toContain(`API key "squatter key" (${prefix}…)`);
    expect(text).toContain('Webhook to by-session.invalid on the form "Contact"');
    expect(text).toContain('Webhook to by-key.invalid on the form "Contact"');
    expect(text).toContain(`Invitation of ${accomplice} as an owner`);
    expect(text).not.toContain('co-owner');
    expect(text).not.toContain(key);
  });

  it('a reset of an account whose address was already confirmed takes nothing back', async () => {
    const me = await t.signup();
    const { key } = await t.createKey(me.token, me.workspaceId);
    const form = await createContactForm(t, me);
    expect((await addWebhook(me.token, form.id, 'https://kept.invalid/hook')).status).toBe(201);
    await takeBack(me.email);
    expect((await readForm(key, form.id)).status).toBe(200);
    expect(await t.count('webhook_endpoints where form_id = ?', [form.id])).toBe(1);
    const [notice] = await changedNotices(me.email);
    expect(notice!.text).not.toContain('taken back');
  });
});
