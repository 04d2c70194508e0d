// lfk members role, lfk workspaces rename, lfk password change and lfk sessions, against the real server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newHome, owner, PASSWORD, server, signupWithCli, startWorld, stopWorld, workspaceId } from './harness.ts';

beforeAll(() => startWorld());
afterAll(() => stopWorld());

it('an owner changes a member’s role; the last owner stays one; a member cannot', async () => {
  const colleague = await newHome({ LFK_BASE_URL: server.baseUrl });
  const { email, userId } = await signupWithCli(colleague, server.baseUrl);
  expect((await owner.lfk(['members', 'add', email])).code).toBe(0);

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
  const { email } = await signupWithCli(me, server.baseUrl);
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
  const { email } = await signupWithCli(me, server.baseUrl);
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
  const { email } = await signupWithCli(guest, server.baseUrl);
  expect((await owner.lfk(['members', 'add', email])).code).toBe(0);
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
