import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkTokenSentTo, until } from '@lfk/server/testing';
import { followSubmissions, keyedForm, owner, server, signupWithCli, startWorld, stopWorld, tempHome, workspaceId } from './harness.ts';

// members, projects, the audit log, --all, and submissions list --follow, against the real server.

beforeAll(() => startWorld());
afterAll(stopWorld);

describe('members', () => {
  it('invite (accepted by the invitee), list and remove, as the database sees it', async () => {
    const colleague = await tempHome();
    try {
      const { email, userId } = await signupWithCli(colleague, server);
      const invited = await owner.lfk(['members', 'invite', email, '--role', 'member', '--json']);
      expect(invited.code, invited.stderr).toBe(0);
      expect(invited.json).toMatchObject({ workspace_id: workspaceId, email, role: 'member' });
      // Nobody joins without accepting.
      expect(await server.sql('select role from memberships where workspace_id = ? and user_id = ?', [workspaceId, userId])).toEqual([]);
      const token = await linkTokenSentTo(server, email, 'invitation');
      const accepted = await colleague.lfk(['invitations', 'accept', `${server.baseUrl}/invitations/${token}`]);
      expect(accepted.code, accepted.stderr).toBe(0);
      expect(accepted.stdout).toContain(`You are a member of`);
      expect(await server.sql('select role from memberships where workspace_id = ? and user_id = ?', [workspaceId, userId])).toEqual([{ role: 'member' }]);

      const listed = await owner.lfk(['members', 'list']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`^${userId}\\t${email.replace('.', '\\.')}\\t\\tmember\\t`, 'm'));

      const badRole = await owner.lfk(['members', 'invite', email, '--role', 'admin']);
      expect(badRole.code).toBe(2);

      const unconfirmed = await owner.lfk(['members', 'remove', userId]);
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.stderr).toContain('prompt_unavailable');
      const removed = await owner.lfk(['members', 'remove', userId, '--yes']);
      expect(removed.code, removed.stderr).toBe(0);
      expect(removed.stdout).toBe(`Removed ${userId} from ${workspaceId}.\n`);
      expect(await server.sql('select role from memberships where workspace_id = ? and user_id = ?', [workspaceId, userId])).toEqual([]);
    } finally {
      await colleague.remove();
    }
  });

  it('the last owner cannot be removed: exit 1 last_owner', async () => {
    const me = (await owner.lfk(['whoami', '--json'])).json.user.id;
    const result = await owner.lfk(['members', 'remove', me, '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: last_owner: /);
  });
});

describe('projects', () => {
  it('create, then list, then put a form in it', async () => {
    const created = await owner.lfk(['projects', 'create', 'Marketing site', '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.json).toMatchObject({ name: 'Marketing site', workspace_id: workspaceId, is_default: false });
    const listed = await owner.lfk(['projects', 'list', '--json']);
    expect(listed.json.data.map((p: any) => p.name).sort()).toEqual(['Default', 'Marketing site'].sort());
    const form = await owner.lfk(['forms', 'create', '--name', 'In a project', '--field', 'email:email', '--project', created.json.id, '--json']);
    expect(form.code, form.stderr).toBe(0);
    expect(form.json.project_id).toBe(created.json.id);
  });
});

describe('the audit log', () => {
  it('lists who did what, newest first', async () => {
    const key = await owner.lfk(['keys', 'create', '--name', 'audited', '--json']);
    const result = await owner.lfk(['audit', 'list', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const newest = result.json.data[0];
    expect(newest).toMatchObject({ action: 'api_key.created', target: { type: 'api_key', id: key.json.id }, actor: { type: 'user' } });
    const human = await owner.lfk(['audit', 'list']);
    expect(human.stdout.split('\n')[1]).toMatch(/\tapi_key\.created\tusr_\w+\tkey_\w+\tevt_\w+$/);
  });
});

describe('--all', () => {
  it('follows every page: 7 keys, 3 a page, all of them once', async () => {
    for (let i = 0; i < 6; i++) expect((await owner.lfk(['keys', 'create', '--name', `paged-${i}`])).code).toBe(0);
    const all = await owner.lfk(['keys', 'list', '--all', '--limit', '3', '--json']);
    expect(all.code, all.stderr).toBe(0);
    const ids = all.json.data.map((k: any) => k.id);
    const rows = await server.sql<{ id: string }>('select id from api_keys where workspace_id = ? order by id desc', [workspaceId]);
    expect(ids).toEqual(rows.map((r) => r.id));
    expect(all.json.next_cursor).toBeNull();
    const first = await owner.lfk(['keys', 'list', '--limit', '3', '--json']);
    expect(first.json.data).toHaveLength(3);
    expect(first.json.next_cursor).toEqual(expect.any(String));
  });
});

describe('submissions list --follow', () => {
  it('prints what is there, then each submission as it arrives (NDJSON with --json), until stopped', async () => {
    const { formId, submit } = await keyedForm(owner, 'Followed');
    const before = await submit('before watching');
    const followed = followSubmissions(owner, formId);
    try {
      await until('the first page', () => followed.lines().length === 1);
      const during = [await submit('first while watching'), await submit('second while watching')];
      await until('the two that arrived', () => followed.lines().length === 3);
      expect(followed.ids()).toEqual([before, ...during]);
      expect(followed.lines()[2]).toMatchObject({ form_id: formId, data: { message: 'second while watching' }, source: 'api_key' });
    } finally {
      followed.stop();
    }
  });

  it('prints every one of a burst larger than a page (100, or about 1 MiB) that arrived between two looks', async () => {
    const form = await owner.lfk(['forms', 'create', '--name', 'Burst', '--field', 'message:text', '--json']);
    const formId = form.json.id as string;
    // Written as the repository writes them, with ids that sort after any made so far: one look
    // after the burst finds all of it new.
    const write = (prefix: string, count: number) =>
      server.sql(
        "insert into submissions (id, form_id, data, source, status, created_at) select ? || lpad(to_hex(g), 24, '0'), ?, " +
          "json_build_object('message', 'burst ' || g), 'api_key', 'ok', now() from generate_series(1, ?) g",
        [prefix, formId, count],
      );
    const idsOf = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${(i + 1).toString(16).padStart(24, '0')}`);
    await write('sub_zy', 1);
    const followed = followSubmissions(owner, formId);
    try {
      await until('the first page', () => followed.lines().length === 1);
      await write('sub_zz', 130);
      await until('the whole burst', () => followed.lines().length === 131);
      expect(followed.ids()).toEqual([...idsOf('sub_zy', 1), ...idsOf('sub_zz', 130)]);
    } finally {
      followed.stop();
    }
  });
});

describe('forms get', () => {
  it('shows the origins the form refused lately, beside the allowed ones', async () => {
    const form = await owner.lfk(['forms', 'create', '--name', 'Refusing', '--field', 'email:email', '--origin', 'https://example.com', '--json']);
    const refused = await fetch(`${server.baseUrl}/v1/forms/${form.json.id}/submissions`, {
      method: 'POST',
      headers: { origin: 'https://www.example.com', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.org' }),
    });
    expect(refused.status).toBe(403);
    await server.server.services.background.settle();
    const shown = await owner.lfk(['forms', 'get', form.json.id]);
    expect(shown.stdout).toMatch(/^allowed origins\s+https:\/\/example\.com$/m);
    expect(shown.stdout).toMatch(/^refused lately\s+https:\/\/www\.example\.com \(\d{4}-\d\d-\d\dT[\d:.]+Z\)$/m);
  });
});

describe('submissions get', () => {
  it('shows one submission with every value whole, multi-line values kept and inert', async () => {
    const form = await owner.lfk(['forms', 'create', '--name', 'Read one', '--field', 'email:email', '--field', 'message:textarea', '--json']);
    const long = `first line\nsecond line with a terminal escape \u001b[2J and ${'x'.repeat(300)}`;
    // A textarea refuses ESC today: the submission is put in as an older version could have stored it.
    const id = 'sub_01jd8m5y7q6v0s9x3c2b1a0zzz';
    await server.sql("insert into submissions (id, form_id, data, source, api_key_id, created_at) values (?, ?, ?, 'browser', null, now())", [
      id,
      form.json.id,
      JSON.stringify({ email: 'ada@example.com', message: long }),
    ]);
    const human = await owner.lfk(['submissions', 'get', form.json.id, id]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`message:\n  first line\n  second line with a terminal escape ^[[2J and ${'x'.repeat(300)}\n`);
    expect(human.stdout).toContain('email:\n  ada@example.com\n');
    const json = await owner.lfk(['submissions', 'get', form.json.id, id, '--json']);
    expect(json.json).toMatchObject({ id, form_id: form.json.id, data: { email: 'ada@example.com', message: long } });
    const missing = await owner.lfk(['submissions', 'get', form.json.id, 'sub_00000000000000000000000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: submission_not_found: /);
  });
});

describe('the next page', () => {
  it('a list cut short names, on stderr, the command that gets the next page', async () => {
    for (const name of ['next-1', 'next-2']) expect((await owner.lfk(['keys', 'create', '--name', name])).code).toBe(0);
    const keys = await owner.lfk(['keys', 'list', '--limit', '1', '--json']);
    const keysTable = await owner.lfk(['keys', 'list', '--limit', '1']);
    expect(keysTable.code, keysTable.stderr).toBe(0);
    expect(keysTable.stderr).toBe(`More: lfk keys list --cursor ${keys.json.next_cursor} (or --all)\n`);

    expect((await owner.lfk(['workspaces', 'create', 'Next page'])).code).toBe(0);
    const workspaces = await owner.lfk(['workspaces', 'list', '--limit', '1', '--json']);
    const workspacesTable = await owner.lfk(['workspaces', 'list', '--limit', '1']);
    expect(workspacesTable.code, workspacesTable.stderr).toBe(0);
    expect(workspacesTable.stderr).toBe(`More: lfk workspaces list --cursor ${workspaces.json.next_cursor} (or --all)\n`);

    const form = await owner.lfk(['forms', 'create', '--name', 'Paged', '--field', 'message:text', '--json']);
    for (const id of ['sub_01jd8m5y7q6v0s9x3c2b1a0aaa', 'sub_01jd8m5y7q6v0s9x3c2b1a0aab']) {
      await server.sql("insert into submissions (id, form_id, data, source, api_key_id, created_at) values (?, ?, ?, 'browser', null, now())", [
        id,
        form.json.id,
        JSON.stringify({ message: 'hello' }),
      ]);
    }
    const submissions = await owner.lfk(['submissions', 'list', form.json.id, '--limit', '1', '--json']);
    const submissionsTable = await owner.lfk(['submissions', 'list', form.json.id, '--limit', '1']);
    expect(submissionsTable.code, submissionsTable.stderr).toBe(0);
    expect(submissionsTable.stderr).toBe(`More: lfk submissions list ${form.json.id} --cursor ${submissions.json.next_cursor} (or --all)\n`);
  });
});
