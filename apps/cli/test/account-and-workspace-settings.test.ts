// lfk members role|invite, lfk invitations, lfk workspaces rename|leave|delete, lfk password change|reset, lfk sessions and
// lfk account, against the real server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { linkTokenSentTo } from '@lfk/server/testing';
import { inviteAndAccept, newHome, owner, PASSWORD, server, signupWithCli, startWorld, stopWorld, workspaceId } from './harness.ts';

beforeAll(() => startWorld());
afterAll(() => stopWorld());

it('an owner changes a member’s role; the last owner stays one; a member cannot', async () => {
  const colleague = await newHome({ LFK_BASE_URL: server.baseUrl });
  const { email, userId } = await signupWithCli(colleague, server);
  await inviteAndAccept(colleague, email);

  const promoted = await owner.lfk(['members', 'role', userId, 'owner']);
  expect(promoted.code, promoted.stderr).toBe(0);
  expect(promoted.stdout).toContain(`is now an owner of ${workspaceId}.`);
  const demoted = await owner.lfk(['members', 'role', userId, 'member', '--json']);
  expect(demoted.json).toMatchObject({ user_id: userId, role: 'member' });

  const self = await owner.lfk(['members', 'list', '--json']);
  const ownerId = self.json.data.find((m: { role: string }) => m.role === 'owner').user_id;
  const last = await owner.lfk(['members', 'role', ownerId, 'member']);
  expect(last.code).toBe(1);
  expect(last.stderr).toContain('last_owner');
  const bad = await owner.lfk(['members', 'role', userId, 'admin']);
  expect(bad.code).toBe(2);
  const byMember = await colleague.lfk(['members', 'role', userId, 'owner', '--workspace', workspaceId]);
  expect(byMember.code).toBe(1);
  expect(byMember.stderr).toContain('owner_required');
});

it('an owner renames the workspace', async () => {
  const renamed = await owner.lfk(['workspaces', 'rename', 'Acme Forms']);
  expect(renamed.code, renamed.stderr).toBe(0);
  expect(renamed.stdout).toContain(`Renamed ${workspaceId} to "Acme Forms".`);
  const listed = await owner.lfk(['workspaces', 'list', '--json']);
  expect(listed.json.data.find((w: { id: string }) => w.id === workspaceId)).toMatchObject({ name: 'Acme Forms' });
  const empty = await owner.lfk(['workspaces', 'rename', '  ']);
  expect(empty.code).toBe(1);
  expect(empty.stderr).toContain('name');
});

it('lfk password change: the current and new password from standard input; other sessions signed out', async () => {
  const me = await newHome({ LFK_BASE_URL: server.baseUrl });
  const { email } = await signupWithCli(me, server);
  const elsewhere = await newHome({ LFK_BASE_URL: server.baseUrl });
  expect((await elsewhere.lfk(['login', '--email', email, '--password-stdin'], { input: `${PASSWORD}\n` })).code).toBe(0);

  const wrong = await me.lfk(['password', 'change', '--password-stdin'], { input: 'not my password\na new long password\n' });
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toContain('current_password');
  const oneLine = await me.lfk(['password', 'change', '--password-stdin'], { input: `${PASSWORD}\n` });
  expect(oneLine.code).toBe(2);

  const changed = await me.lfk(['password', 'change', '--password-stdin'], { input: `${PASSWORD}\na new long password\n` });
  expect(changed.code, changed.stderr).toBe(0);
  expect(changed.stdout).toContain('Password changed.');
  expect(changed.stdout + changed.stderr).not.toContain('a new long password');
  expect((await me.lfk(['whoami'])).code).toBe(0);
  expect((await elsewhere.lfk(['whoami'])).code).toBe(4);
  expect((await elsewhere.lfk(['login', '--email', email, '--password-stdin'], { input: 'a new long password\n' })).code).toBe(0);
});

it('lfk sessions list and revoke: one session, or every other one', async () => {
  const me = await newHome({ LFK_BASE_URL: server.baseUrl });
  const { email } = await signupWithCli(me, server);
  const laptop = await newHome({ LFK_BASE_URL: server.baseUrl });
  const phone = await newHome({ LFK_BASE_URL: server.baseUrl });
  for (const home of [laptop, phone]) expect((await home.lfk(['login', '--email', email, '--password-stdin'], { input: `${PASSWORD}\n` })).code).toBe(0);

  const listed = await me.lfk(['sessions', 'list', '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.json.data).toHaveLength(3);
  expect(listed.json.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
  expect(listed.json.data[0].user_agent).toMatch(/^lfk-cli\//);
  const table = await me.lfk(['sessions', 'list']);
  expect(table.stdout).toContain(`* ${listed.json.data.find((s: { current: boolean }) => s.current).id}`);

  const phoneId = (await phone.lfk(['sessions', 'list', '--json'])).json.data.find((s: { current: boolean }) => s.current).id;
  const one = await me.lfk(['sessions', 'revoke', phoneId]);
  expect(one.stdout).toContain(`Signed out ${phoneId}.`);
  expect((await phone.lfk(['whoami'])).code).toBe(4);
  expect((await me.lfk(['sessions', 'revoke'])).code).toBe(2);
  const others = await me.lfk(['sessions', 'revoke', '--others']);
  expect(others.stdout).toContain('Signed out 1 other session.');
  expect((await laptop.lfk(['whoami'])).code).toBe(4);
  expect((await me.lfk(['whoami'])).code).toBe(0);
  const gone = await me.lfk(['sessions', 'revoke', phoneId]);
  expect(gone.code).toBe(1);
  expect(gone.stderr).toContain('session_not_found');
});

it('lfk workspaces leave: asks first, then the workspace is gone from your list; the last owner cannot', async () => {
  const guest = await newHome({ LFK_BASE_URL: server.baseUrl });
  const { email } = await signupWithCli(guest, server);
  await inviteAndAccept(guest, email);
  expect((await guest.lfk(['workspaces', 'use', workspaceId])).code).toBe(0);
  const unasked = await guest.lfk(['workspaces', 'leave']);
  expect(unasked.code).toBe(2);
  const left = await guest.lfk(['workspaces', 'leave', '--yes']);
  expect(left.code, left.stderr).toBe(0);
  expect(left.stdout).toContain(`You left ${workspaceId}.`);
  const listed = await guest.lfk(['workspaces', 'list', '--json']);
  expect(listed.json.data.map((w: { id: string }) => w.id)).not.toContain(workspaceId);
  const last = await owner.lfk(['workspaces', 'leave', '--yes']);
  expect(last.code).toBe(1);
  expect(last.stderr).toContain('last_owner');
});

it('lfk invitations: list, resend, cancel; the invitee accepts with the link, signed in with its address', async () => {
  const guest = await newHome({ LFK_BASE_URL: server.baseUrl });
  const { email } = await signupWithCli(guest, server);
  const invited = await owner.lfk(['members', 'invite', email, '--role', 'owner']);
  expect(invited.code, invited.stderr).toBe(0);
  expect(invited.stdout).toContain(`Invited ${email} to ${workspaceId} as an owner`);
  const listed = await owner.lfk(['invitations', 'list', '--json']);
  const invitation = listed.json.data.find((i: { email: string }) => i.email === email);
  expect(invitation).toMatchObject({ role: 'owner' });
  const first = await linkTokenSentTo(server, email, 'invitation');

  const resent = await owner.lfk(['invitations', 'resend', invitation.id]);
  expect(resent.code, resent.stderr).toBe(0);
  expect(resent.stdout).toContain(`Sent ${email} a new link`);
  const second = await linkTokenSentTo(server, email, 'invitation', 2);
  const stale = await guest.lfk(['invitations', 'accept', first]);
  expect(stale.code).toBe(1);
  expect(stale.stderr).toContain('invitation_not_found');

  const stranger = await newHome({ LFK_BASE_URL: server.baseUrl });
  await signupWithCli(stranger, server);
  const wrongPerson = await stranger.lfk(['invitations', 'accept', second]);
  expect(wrongPerson.code).toBe(1);
  expect(wrongPerson.stderr).toContain('invitation_for_another_address');
  expect((await guest.lfk(['invitations', 'accept', 'not a link'])).code).toBe(2);

  const joined = await guest.lfk(['invitations', 'accept', `${server.baseUrl}/invitations/${second}`, '--json']);
  expect(joined.code, joined.stderr).toBe(0);
  expect(joined.json).toMatchObject({ workspace: { id: workspaceId }, role: 'owner' });

  const another = `pending-${Date.now()}@example.com`;
  expect((await owner.lfk(['members', 'invite', another])).code).toBe(0);
  const pending = (await owner.lfk(['invitations', 'list', '--json'])).json.data.find((i: { email: string }) => i.email === another);
  expect((await owner.lfk(['invitations', 'cancel', pending.id])).code).toBe(2);
  const cancelled = await owner.lfk(['invitations', 'cancel', pending.id, '--yes']);
  expect(cancelled.code, cancelled.stderr).toBe(0);
  expect((await owner.lfk(['invitations', 'list', '--json'])).json.data.map((i: { email: string }) => i.email)).not.toContain(another);
});

it('lfk password reset: the link is emailed, then a new password is set with it from standard input', async () => {
  const me = await newHome({ LFK_BASE_URL: server.baseUrl });
  const { email } = await signupWithCli(me, server);
  const asked = await me.lfk(['password', 'reset', email]);
  expect(asked.code, asked.stderr).toBe(0);
  expect(asked.stdout).toContain('If an account uses this address');
  const token = await linkTokenSentTo(server, email, 'password_reset');
  expect((await me.lfk(['password', 'reset'])).code).toBe(2);
  expect((await me.lfk(['password', 'reset', email, '--link', token])).code).toBe(2);
  const set = await me.lfk(['password', 'reset', '--link', `${server.baseUrl}/v1/auth/password-resets/${token}`, '--password-stdin'], {
    input: 'a reset long password\n',
  });
  expect(set.code, set.stderr).toBe(0);
  expect(set.stdout).toContain('Password set.');
  // Every session was signed out, this machine's too.
  expect((await me.lfk(['whoami'])).code).toBe(4);
  expect((await me.lfk(['login', '--email', email, '--password-stdin'], { input: 'a reset long password\n' })).code).toBe(0);
  const again = await me.lfk(['password', 'reset', '--link', token, '--password-stdin'], { input: 'another long password\n' });
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('not_found');
});

it('lfk workspaces delete: typed name or --confirm; then its keys stop; lfk account delete with the password', async () => {
  const me = await newHome({ LFK_BASE_URL: server.baseUrl });
  const { email, workspaceId: mine } = await signupWithCli(me, server);
  const created = await me.lfk(['workspaces', 'create', 'Doomed', '--use', '--json']);
  const doomed = created.json.id as string;
  const key = (await me.lfk(['keys', 'create', '--name', 'doomed', '--json'])).json.key as string;
  const unasked = await me.lfk(['workspaces', 'delete']);
  expect(unasked.code).toBe(2);
  const wrong = await me.lfk(['workspaces', 'delete', '--confirm', 'doomed']);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toContain('confirm');
  const deleted = await me.lfk(['workspaces', 'delete', '--confirm', 'Doomed']);
  expect(deleted.code, deleted.stderr).toBe(0);
  expect(deleted.stdout).toContain(`Deleted ${doomed}.`);
  expect(await server.sql('select id from workspaces where id = ?', [doomed])).toEqual([]);
  const refused = await fetch(`${server.baseUrl}/v1/forms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(refused.status).toBe(401);

  const wrongPassword = await me.lfk(['account', 'delete', '--yes', '--password-stdin'], { input: 'not my password\n' });
  expect(wrongPassword.code).toBe(1);
  expect(wrongPassword.stderr).toContain('password');
  const gone = await me.lfk(['account', 'delete', '--yes', '--password-stdin'], { input: `${PASSWORD}\n` });
  expect(gone.code, gone.stderr).toBe(0);
  expect(gone.stdout).toContain('Your account is deleted.');
  expect(await server.sql('select id from users where email = ?', [email])).toEqual([]);
  expect(await server.sql('select id from workspaces where id = ?', [mine])).toEqual([]);
  expect((await me.lfk(['whoami'])).code).toBe(4);
});

it('an account whose address is not confirmed makes no key, and is told how to confirm it', async () => {
  const me = await newHome({ LFK_BASE_URL: server.baseUrl });
  const { workspaceId: mine } = await signupWithCli(me, server, { confirmed: false });
  const refused = await me.lfk(['keys', 'create', '--name', 'too soon']);
  expect(refused.code).toBe(1);
  expect(refused.stdout).toBe('');
  expect(refused.stderr).toContain('error: email_not_confirmed: Confirm your email address first');
  expect(refused.stderr).toContain("get a new one with 'lfk account verify-email'");
  expect(await server.sql('select id from api_keys where workspace_id = ?', [mine])).toEqual([]);
});

it('lfk account verify-email: a new link, and a clear refusal once confirmed', async () => {
  const me = await newHome({ LFK_BASE_URL: server.baseUrl });
  const { email } = await signupWithCli(me, server, { confirmed: false });
  await server.sql("update email_verifications set created_at = created_at - interval '1 hour' where email = ?", [email]);
  const sent = await me.lfk(['account', 'verify-email']);
  expect(sent.code, sent.stderr).toBe(0);
  expect(sent.stdout).toMatch(/^Sent a link to .\*\*\*@example\.com/);
  const token = await linkTokenSentTo(server, email, 'account_verification', 2);
  expect((await fetch(`${server.baseUrl}/v1/email-verifications/${token}`, { method: 'POST' })).status).toBe(200);
  await server.sql("update email_verifications set created_at = created_at - interval '1 hour' where email = ?", [email]);
  const again = await me.lfk(['account', 'verify-email']);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('email_already_verified');
});
