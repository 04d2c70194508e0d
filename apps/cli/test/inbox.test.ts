// lfk submissions delete|export|spam|not-spam, the list's filters, lfk forms close|reopen|delete
// with the spam, closing, retention and drafts flags, and lfk drafts list|delete, against the real server.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newHome, owner, ownerEmail, ownerKey, server, startWorld, stopWorld } from './harness.ts';

beforeAll(() => startWorld());
afterAll(() => stopWorld());

/** A form made with the owner's key (api_key mode, so the key submits), and the key. */
async function formWithKey(...flags: string[]) {
  const { key } = await ownerKey(`inbox-${Math.random().toString(36).slice(2, 8)}`);
  const asKey = { env: { LFK_API_KEY: key } };
  const form = await owner.lfk(
    ['forms', 'create', '--name', 'Inbox', '--field', 'name:text', '--field', 'note:textarea', '--mode', 'api_key', ...flags, '--json'],
    asKey,
  );
  expect(form.code, form.stderr).toBe(0);
  return { formId: form.json.id as string, asKey };
}

async function submitAs(asKey: { env: Record<string, string> }, formId: string, ...data: string[]) {
  const res = await owner.lfk(['submissions', 'create', formId, ...data.flatMap((d) => ['--data', d]), '--json'], asKey);
  expect(res.code, res.stderr).toBe(0);
  return res.json.id as string;
}

describe('lfk forms: drafts', () => {
  it('keeps drafts for as many days as --drafts says, shows it, and --drafts off stops it', async () => {
    const { formId, asKey } = await formWithKey('--drafts', '14');
    const shown = await owner.lfk(['forms', 'get', formId], asKey);
    expect(shown.stdout).toMatch(/drafts\s+kept 14 days after the last save/);
    const linked = await owner.lfk(['forms', 'update', formId, '--draft-email-link', 'on', '--json'], asKey);
    expect(linked.json.drafts).toEqual({ enabled: true, ttl_days: 14, email_link: true });
    expect((await owner.lfk(['forms', 'get', formId], asKey)).stdout).toMatch(
      /drafts\s+kept 14 days after the last save, a link to finish later emailed on request/,
    );
    const off = await owner.lfk(['forms', 'update', formId, '--drafts', 'off', '--json'], asKey);
    expect(off.code, off.stderr).toBe(0);
    expect(off.json.drafts).toEqual({ enabled: false, ttl_days: 14, email_link: true });
    const tooLong = await owner.lfk(['forms', 'update', formId, '--drafts', '31'], asKey);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain('drafts.ttl_days');
    const notANumber = await owner.lfk(['forms', 'update', formId, '--drafts', 'soon'], asKey);
    expect(notANumber.code).toBe(2);
  });
});

describe('lfk forms: the content filter', () => {
  it('--spam-filter and --spam-threshold set it, forms get says it, and submissions get shows the score and its reasons', async () => {
    const { formId, asKey } = await formWithKey('--spam-threshold', '0.01');
    expect((await owner.lfk(['forms', 'get', formId], asKey)).stdout).toMatch(/spam filter\s+on: above 0\.01 goes to spam/);
    const id = await submitAs(asKey, formId, 'name=BEST OFFER', 'note=CLICK HERE for FREE money!!! https://bit.ly/a http://b.example/c http://d.example/e');
    const shown = await owner.lfk(['submissions', 'get', formId, id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/status\s+spam \(content\)/);
    expect(shown.stdout).toMatch(/spam score\s+[01]\.\d\d/);
    expect(shown.stdout).toMatch(/link_shortener\s+It links through a link shortener \(bit\.ly\)/);
    const listed = await owner.lfk(['submissions', 'list', formId, '--status', 'spam', '--json']);
    expect(listed.json.data[0].spam_reasons.map((r: { code: string }) => r.code)).toContain('many_links');

    const off = await owner.lfk(['forms', 'update', formId, '--spam-filter', 'off', '--spam-threshold', 'default', '--json'], asKey);
    expect(off.code, off.stderr).toBe(0);
    expect(off.json.spam_filter).toEqual({ enabled: false, threshold: expect.any(Number) });
    expect(off.json.spam_filter.threshold).toBeGreaterThan(0.01);
    const unscored = await submitAs(asKey, formId, 'name=Ada');
    expect((await owner.lfk(['submissions', 'get', formId, unscored])).stdout).toMatch(/spam score\s+not scored/);
    const bad = await owner.lfk(['forms', 'update', formId, '--spam-threshold', 'high'], asKey);
    expect(bad.code).toBe(2);
  });
});

describe('lfk drafts', () => {
  it("lists a form's drafts (counted on lfk forms list) and deletes them by id", async () => {
    const page = 'https://shop.example';
    const form = await owner.lfk(['forms', 'create', '--name', 'Drafted', '--origin', page, '--field', 'name:text', '--drafts', '7', '--json']);
    expect(form.code, form.stderr).toBe(0);
    const formId = form.json.id as string;
    const ids: string[] = [];
    for (const name of ['Ada', 'Grace']) {
      const res = await fetch(`${server.baseUrl}/v1/forms/${formId}/drafts`, {
        method: 'POST',
        headers: { origin: page, 'content-type': 'application/json' },
        body: JSON.stringify({ data: { name } }),
      });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    const listed = await owner.lfk(['drafts', 'list', formId]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/name=Grace[\s\S]*name=Ada/);
    const json = await owner.lfk(['drafts', 'list', formId, '--all', '--json']);
    expect(json.json.data.map((d: { id: string }) => d.id)).toEqual([ids[1], ids[0]]);
    const forms = await owner.lfk(['forms', 'list', '--json']);
    expect(forms.json.data.find((f: { id: string }) => f.id === formId).draft_count).toBe(2);

    const deleted = await owner.lfk(['drafts', 'delete', formId, ids[0]!]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`Deleted 1 draft of ${formId}.`);
    expect((await owner.lfk(['drafts', 'list', formId, '--json'])).json.data.map((d: { id: string }) => d.id)).toEqual([ids[1]]);
    const empty = await owner.lfk(['drafts', 'delete', formId, ids[0]!]);
    expect(empty.stdout).toContain(`Deleted 0 drafts of ${formId}.`);
  });
});

describe('lfk forms: spam, closing and retention settings', () => {
  it('sets them at create and update, shows them, and clears them with --no-…', async () => {
    const { formId, asKey } = await formWithKey('--honeypot', '_gotcha', '--retention-days', '90', '--max-submissions', '500');
    const shown = await owner.lfk(['forms', 'get', formId], asKey);
    expect(shown.stdout).toMatch(/honeypot\s+_gotcha/);
    expect(shown.stdout).toMatch(/retention\s+90 days/);
    expect(shown.stdout).toMatch(/max submissions\s+500/);
    expect(shown.stdout).toMatch(/captcha\s+none/);

    // The secret from standard input: never on the command line, never printed back.
    const captcha = await owner.lfk(
      ['forms', 'update', formId, '--captcha', 'turnstile', '--captcha-site-key', '0x4AAAsite', '--captcha-secret', '-', '--json'],
      {
        ...asKey,
        input: 'cli-captcha-secret\n',
      },
    );
    expect(captcha.code, captcha.stderr).toBe(0);
    expect(captcha.json.spam).toEqual({ honeypot: '_gotcha', captcha: { provider: 'turnstile', site_key: '0x4AAAsite' } });
    expect(captcha.stdout + captcha.stderr).not.toContain('cli-captcha-secret');

    // Retention is a person's to change: with the key given, the whole update is refused, nothing changed.
    const keyAndSession = await owner.lfk(['forms', 'update', formId, '--no-honeypot', '--no-retention-days'], asKey);
    expect(keyAndSession.code).toBe(4);
    expect(keyAndSession.stderr).toContain('error: session_required:');
    expect((await owner.lfk(['forms', 'get', formId, '--json'], asKey)).json.spam.honeypot).toBe('_gotcha');

    const cleared = await owner.lfk(['forms', 'update', formId, '--no-honeypot', '--no-captcha', '--no-max-submissions', '--json'], asKey);
    expect(cleared.json).toMatchObject({ spam: { honeypot: null, captcha: null }, max_submissions: null });
    const kept = await owner.lfk(['forms', 'update', formId, '--no-retention-days', '--json']);
    expect(kept.json).toMatchObject({ retention_days: null });

    const bad = await owner.lfk(['forms', 'update', formId, '--retention-days', '0']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('retention_days');
    const notANumber = await owner.lfk(['forms', 'update', formId, '--max-submissions', 'ten'], asKey);
    expect(notANumber.code).toBe(2);
    const siteKeyAlone = await owner.lfk(['forms', 'update', formId, '--captcha-site-key', 'x'], asKey);
    expect(siteKeyAlone.code).toBe(2);
    // Retention is changed by a person: an agent holding only the key is told so, and nothing changes.
    const agent = await newHome({ ...asKey.env, LFK_BASE_URL: server.baseUrl });
    const byKey = await agent.lfk(['forms', 'update', formId, '--retention-days', '1']);
    expect(byKey.code).toBe(4);
    expect((await owner.lfk(['forms', 'get', formId, '--json'], asKey)).json.retention_days).toBeNull();
    expect((await owner.lfk(['forms', 'update', formId, '--retention-days', '30', '--json'])).json.retention_days).toBe(30);
  });

  it('close and reopen, with a key; the list shows counts', async () => {
    const { formId, asKey } = await formWithKey();
    await submitAs(asKey, formId, 'name=Ada');
    const closed = await owner.lfk(['forms', 'close', formId, '--message', 'Closed for the season.'], asKey);
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).toContain(`Closed form ${formId}.`);
    const refused = await owner.lfk(['submissions', 'create', formId, '--data', 'name=Late'], asKey);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Closed for the season.');
    expect((await owner.lfk(['forms', 'reopen', formId, '--message', 'x'], asKey)).code).toBe(2);
    const reopened = await owner.lfk(['forms', 'reopen', formId], asKey);
    expect(reopened.stdout).toContain(`Reopened form ${formId}.`);
    await submitAs(asKey, formId, 'name=Grace');

    const listed = await owner.lfk(['forms', 'list', '--json']);
    expect(listed.json.data.find((f: { id: string }) => f.id === formId)).toMatchObject({ submission_count: 2, last_submission_at: expect.any(String) });
    // Piped, the table is one tab-separated line per form: the count is a column of its own.
    const table = await owner.lfk(['forms', 'list']);
    expect(
      table.stdout
        .split('\n')
        .find((line) => line.startsWith(formId))
        ?.split('\t'),
    ).toContain('2');
  });

  it('delete asks, and needs --yes without a terminal; a key cannot delete', async () => {
    const { formId, asKey } = await formWithKey();
    const unasked = await owner.lfk(['forms', 'delete', formId]);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('--yes');
    // An agent holding only the key is told it needs a person.
    const agent = await newHome({ ...asKey.env, LFK_BASE_URL: server.baseUrl });
    const byKey = await agent.lfk(['forms', 'delete', formId, '--yes']);
    expect(byKey.code).toBe(4);
    const deleted = await owner.lfk(['forms', 'delete', formId, '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`Deleted form ${formId}.`);
    const gone = await owner.lfk(['forms', 'get', formId]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('form_not_found');
  });
});

describe('lfk submissions: filters, marks, deletes, exports', () => {
  it('lists by status and text, marks spam and not spam, deletes by id and before a time', async () => {
    const { formId, asKey } = await formWithKey('--honeypot', '_gotcha');
    const ada = await submitAs(asKey, formId, 'name=Ada', 'note=likes cotton');
    const bot = await submitAs(asKey, formId, 'name=Bot', '_gotcha=x');
    const grace = await submitAs(asKey, formId, 'name=Grace');

    const spam = await owner.lfk(['submissions', 'list', formId, '--status', 'spam', '--json']);
    expect(spam.json.data.map((s: { id: string }) => s.id)).toEqual([bot]);
    const found = await owner.lfk(['submissions', 'list', formId, '--q', 'COTTON', '--json']);
    expect(found.json.data.map((s: { id: string }) => s.id)).toEqual([ada]);
    const none = await owner.lfk(['submissions', 'list', formId, '--q', 'nothing-like-this']);
    expect(none.stdout).toContain('match');
    // Times as durations back from now, like the other flags.
    const recent = await owner.lfk(['submissions', 'list', formId, '--since', '10m', '--json']);
    expect(recent.json.data.map((s: { id: string }) => s.id).sort()).toEqual([ada, grace].sort());
    const older = await owner.lfk(['submissions', 'list', formId, '--until', '10m', '--json']);
    expect(older.json.data).toEqual([]);

    const marked = await owner.lfk(['submissions', 'spam', formId, grace]);
    expect(marked.stdout).toContain(`Marked ${grace} as spam.`);
    const released = await owner.lfk(['submissions', 'not-spam', formId, bot, '--json']);
    expect(released.json).toMatchObject({ id: bot, status: 'ok', spam_reason: null });
    const got = await owner.lfk(['submissions', 'get', formId, grace]);
    expect(got.stdout).toMatch(/status\s+spam \(marked\)/);

    const one = await owner.lfk(['submissions', 'delete', formId, ada]);
    expect(one.stdout).toContain(`Deleted 1 submission of ${formId}.`);
    const unasked = await owner.lfk(['submissions', 'delete', formId, '--before', new Date(Date.now() + 60_000).toISOString()]);
    expect(unasked.code).toBe(2);
    const both = await owner.lfk(['submissions', 'delete', formId, bot, '--before', new Date().toISOString(), '--yes']);
    expect(both.code).toBe(2);
    const before = await owner.lfk(['submissions', 'delete', formId, '--before', new Date(Date.now() + 60_000).toISOString(), '--yes', '--json']);
    expect(before.json).toEqual({ deleted: 2 });
    expect(await server.sql('select id from submissions where form_id = ?', [formId])).toEqual([]);
    const agent = await newHome({ ...asKey.env, LFK_BASE_URL: server.baseUrl });
    expect((await agent.lfk(['submissions', 'delete', formId, ada])).code).toBe(4);
  });

  it('exports CSV to standard output or a file, and JSON Lines, with the filters', async () => {
    const { formId, asKey } = await formWithKey('--honeypot', '_gotcha');
    const first = await submitAs(asKey, formId, 'name==1+1', 'note=two\nlines');
    await submitAs(asKey, formId, 'name=Bot', '_gotcha=x');

    const csv = await owner.lfk(['submissions', 'export', formId]);
    expect(csv.code, csv.stderr).toBe(0);
    const lines = csv.stdout.split('\r\n');
    expect(lines[0]).toBe('id,created_at,via,name,note');
    expect(lines[1]).toMatch(new RegExp(`^${first},[^,]+,api_key,'=1\\+1,"two\nlines"$`));
    expect(lines.filter(Boolean)).toHaveLength(2);

    const path = join(owner.dir, 'out.csv');
    const toFile = await owner.lfk(['submissions', 'export', formId, '--status', 'spam', '--bom', '--output', path]);
    expect(toFile.stderr).toContain(`Wrote CSV to ${path}.`);
    const written = await readFile(path, 'utf8');
    expect(written.startsWith('\uFEFFid,created_at,via,name,note\r\n')).toBe(true);
    expect(written).toContain(',Bot,');

    const jsonl = await owner.lfk(['submissions', 'export', formId, '--format', 'jsonl', '--q', 'lines']);
    expect(
      jsonl.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([expect.objectContaining({ id: first, via: 'api_key', values: { name: '=1+1', note: 'two\nlines' } })]);

    const agent = await newHome({ LFK_API_KEY: (await ownerKey('agent-export')).key, LFK_BASE_URL: server.baseUrl });
    const agentTry = await agent.lfk(['submissions', 'export', formId]);
    expect(agentTry.code).toBe(4);
    expect(agentTry.stderr).toContain('API key cannot');
    const badFormat = await owner.lfk(['submissions', 'export', formId, '--format', 'xlsx']);
    expect(badFormat.code).toBe(2);
    const badTime = await owner.lfk(['submissions', 'export', formId, '--since', 'yesterday']);
    expect(badTime.code).toBe(2);
    expect(badTime.stderr).toContain('--since takes a duration back from now (90m, 24h, 30d) or a time');
  });

  it('says so when the person already streams as many exports as they may (429), and exits 5', async () => {
    const { formId } = await formWithKey();
    const [user] = await server.sql<{ id: string }>('select id from users where email = ?', [ownerEmail]);
    // Two exports of theirs streaming (to a stalled reader, say): LFK_EXPORTS_PER_PERSON is 2.
    const streaming = [server.server.services.exports.take(user!.id), server.server.services.exports.take(user!.id)];
    try {
      const refused = await owner.lfk(['submissions', 'export', formId]);
      expect(refused.code).toBe(5);
      expect(refused.stdout).toBe('');
      expect(refused.stderr.split('\n')).toEqual([
        'error: rate_limited: You are already exporting 2 files at once; wait for one to finish, then try again.',
        'Let one of your exports finish (those of other terminals and the dashboard count too), or stop it, then try again in 10 seconds.',
        '',
      ]);
      const json = await owner.lfk(['submissions', 'export', formId, '--json']);
      expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'rate_limited', retry_after: 10 });
    } finally {
      for (const giveBack of streaming) giveBack();
    }
    expect((await owner.lfk(['submissions', 'export', formId])).code).toBe(0);
  });
});
