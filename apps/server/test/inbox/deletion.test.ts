/**
 * Deleting submissions (one, by ids, everything before a time) and whole forms: the rows are gone
 * from the database with their emails and webhook deliveries, and the audit log says how many,
 * never which values.
 */
import { type Account, ENGINE, expectError, until, useTestServer } from '@lfk/server/testing';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { inboxForm, post, sendsOf, stored, unreachableWebhook, VALID, verifiedNotifyEmail } from './fixtures.ts';

let clock = new Date('2026-11-25T12:00:00Z');
const t = useTestServer({ SMTP_URL: 'smtp://127.0.0.1:9', LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, {
  config: { now: () => clock },
  outbox: { baseDelayMs: 3_600_000, maxDelayMs: 3_600_000 },
  webhooks: { retryDelaysMs: [3_600_000] },
});
let owner: Account;
let member: Account;
let outsider: Account;
let key: string;

beforeAll(async () => {
  ({ owner, member, outsider } = await t.signupTeam());
  key = (await t.createKey(owner.token, owner.workspaceId)).key;
});

const SECRET_VALUE = 'private-value-7f3a';

async function auditOf(formOrSubmission: string) {
  const res = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events?limit=100`, { token: owner.token });
  expect(res.body).not.toContain(SECRET_VALUE);
  return res.json.data.filter((e: { target: { id: string } | null }) => e.target?.id === formOrSubmission);
}

describe('one submission', () => {
  it('is gone, with its email and its deliveries; deleting it again is 404', async () => {
    const form = await inboxForm(t, owner);
    await verifiedNotifyEmail(t, form.id);
    await unreachableWebhook(t, owner, form.id);
    const id = (await post(t, form.id, { ...VALID, message: SECRET_VALUE })).json.id;
    const kept = (await post(t, form.id)).json.id;
    expect(await sendsOf(t, id)).toEqual({ emails: 1, deliveries: 1 });

    const res = await t.request('DELETE', `/v1/forms/${form.id}/submissions/${id}`, { token: member.token });
    expect(res.status, res.body).toBe(204);
    expect((await stored(t, form.id)).map((s) => s.id)).toEqual([kept]);
    expect(await sendsOf(t, id)).toEqual({ emails: 0, deliveries: 0 });
    expect(await t.count('outbox_emails where body like ?', [`%${SECRET_VALUE}%`])).toBe(0);
    expectError(await t.request('GET', `/v1/forms/${form.id}/submissions/${id}`, { token: owner.token }), 404, 'submission_not_found');
    expectError(await t.request('DELETE', `/v1/forms/${form.id}/submissions/${id}`, { token: owner.token }), 404, 'submission_not_found');

    const [event] = await auditOf(id);
    expect(event).toMatchObject({ action: 'submission.deleted', actor: { type: 'user', id: member.userId }, data: { form_id: form.id } });
  });

  it('a key cannot delete (it cannot read submissions); an outsider does not see the form; another form’s id is 404', async () => {
    const form = await inboxForm(t, owner);
    const other = await inboxForm(t, owner);
    const id = (await post(t, form.id)).json.id;
    expectError(await t.request('DELETE', `/v1/forms/${form.id}/submissions/${id}`, { token: key }), 403, 'session_required');
    expectError(await t.request('DELETE', `/v1/forms/${form.id}/submissions/${id}`, { token: outsider.token }), 404, 'form_not_found');
    expectError(await t.request('DELETE', `/v1/forms/${other.id}/submissions/${id}`, { token: owner.token }), 404, 'submission_not_found');
    expect(await stored(t, form.id)).toHaveLength(1);
  });
});

describe('several submissions', () => {
  it('by ids: only the form’s own are deleted, and counted once', async () => {
    const form = await inboxForm(t, owner);
    const other = await inboxForm(t, owner);
    const [a, b, c] = await Promise.all([post(t, form.id), post(t, form.id), post(t, form.id)]).then((r) => r.map((x) => x.json.id as string));
    const elsewhere = (await post(t, other.id)).json.id;
    const res = await t.request('POST', `/v1/forms/${form.id}/submissions/delete`, {
      token: owner.token,
      body: { ids: [a, b, a, elsewhere, 'sub_00000000000000000000000000', 'nonsense'] },
    });
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({ deleted: 2 });
    expect((await stored(t, form.id)).map((s) => s.id)).toEqual([c]);
    expect(await stored(t, other.id)).toHaveLength(1);
    const [event] = await auditOf(form.id);
    expect(event).toMatchObject({ action: 'submissions.deleted', data: { deleted: 2, ids: 6 } });
  });

  it('everything before a time, spam too, in batches whatever the number', async () => {
    const form = await inboxForm(t, owner, { spam: { honeypot: '_gotcha' } });
    // 2,500 old submissions, written as the repository writes them, a day before the cut.
    await t.sql(
      "insert into submissions (id, form_id, data, source, status, created_at) select 'sub_' || lpad(to_hex(g), 26, '0'), ?, '{\"name\":\"Old\"}', 'browser', 'ok', ? from generate_series(1, 2500) g",
      [form.id, new Date(clock.getTime() - 86_400_000)],
    );
    await post(t, form.id, { ...VALID, _gotcha: 'bot' });
    clock = new Date(clock.getTime() + 60_000);
    const cut = clock.toISOString();
    clock = new Date(clock.getTime() + 60_000);
    const recent = (await post(t, form.id)).json.id;

    const res = await t.request('POST', `/v1/forms/${form.id}/submissions/delete`, { token: owner.token, body: { before: cut } });
    expect(res.json).toEqual({ deleted: 2501 });
    expect((await stored(t, form.id)).map((s) => s.id)).toEqual([recent]);
    const [event] = await auditOf(form.id);
    expect(event).toMatchObject({ action: 'submissions.deleted', data: { deleted: 2501, before: cut } });
  });

  it('asks for ids or a time, not both, not neither; at most 100 ids', async () => {
    const form = await inboxForm(t, owner);
    const url = `/v1/forms/${form.id}/submissions/delete`;
    const bodies = [{}, { ids: [] }, { ids: ['sub_x'], before: clock.toISOString() }, { ids: Array(101).fill('sub_x') }, { before: 'yesterday' }, { before: '0000-01-01T00:00:00Z' }];
    for (const body of bodies) {
      expectError(await t.request('POST', url, { token: owner.token, body }), 400, 'invalid_request');
    }
    expectError(await t.request('POST', url, { token: key, body: { before: clock.toISOString() } }), 403, 'session_required');
  });
});

describe('a whole form', () => {
  it('an owner deletes it with everything it holds: submissions, emails, webhooks and deliveries', async () => {
    const form = await inboxForm(t, owner);
    await verifiedNotifyEmail(t, form.id);
    const webhookId = await unreachableWebhook(t, owner, form.id);
    const ids = await Promise.all([post(t, form.id, { ...VALID, message: SECRET_VALUE }), post(t, form.id)]).then((r) => r.map((x) => x.json.id));

    expectError(await t.request('DELETE', `/v1/forms/${form.id}`, { token: member.token }), 403, 'owner_required');
    expectError(await t.request('DELETE', `/v1/forms/${form.id}`, { token: key }), 403, 'session_required');
    expectError(await t.request('DELETE', `/v1/forms/${form.id}`, { token: outsider.token }), 404, 'form_not_found');
    expect(await stored(t, form.id)).toHaveLength(2);

    const res = await t.request('DELETE', `/v1/forms/${form.id}`, { token: owner.token });
    expect(res.status, res.body).toBe(204);
    expect(await t.count('forms where id = ?', [form.id])).toBe(0);
    expect(await t.count('submissions where form_id = ?', [form.id])).toBe(0);
    expect(await t.count('webhook_endpoints where id = ?', [webhookId])).toBe(0);
    for (const id of ids) expect(await sendsOf(t, id)).toEqual({ emails: 0, deliveries: 0 });
    expect(await t.count('outbox_emails where body like ?', [`%${SECRET_VALUE}%`])).toBe(0);

    expectError(await t.request('GET', `/v1/forms/${form.id}`, { token: owner.token }), 404, 'form_not_found');
    expectError(await post(t, form.id), 404, 'form_not_found');
    expectError(await t.request('DELETE', `/v1/forms/${form.id}`, { token: owner.token }), 404, 'form_not_found');
    const [event] = await auditOf(form.id);
    expect(event).toMatchObject({ action: 'form.deleted', actor: { type: 'user', id: owner.userId }, data: { name: 'Contact', submissions: 2 } });
  });

  it('submissions racing the form’s deletion: each 201 or 404 form_not_found, never a 500, and nothing is left', async () => {
    const form = await inboxForm(t, owner);
    const posts = () => Array.from({ length: 20 }, () => post(t, form.id));
    const answers = await Promise.all([...posts(), t.request('DELETE', `/v1/forms/${form.id}`, { token: owner.token }), ...posts()]);
    const [deleted] = answers.splice(20, 1);
    expect(deleted!.status, deleted!.body).toBe(204);
    for (const res of answers) {
      expect([201, 404], res.body).toContain(res.status);
      if (res.status === 404) expect(res.json.error.code).toBe('form_not_found');
    }
    expect(await t.count('submissions where form_id = ?', [form.id])).toBe(0);
  });

  // Only PostgreSQL has a second connection to hold the form while a submission waits on it.
  it.skipIf(ENGINE !== 'postgresql')('a submission whose form is deleted while it is written: 404 form_not_found, not a 500', async () => {
    const form = await inboxForm(t, owner);
    const other = new pg.Client({ connectionString: t.server.config.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select id from forms where id = $1 for update', [form.id]);
      // The submission reads the form, then its insert waits for the row this transaction holds…
      const pending = post(t, form.id);
      await until('the submission to wait for the form’s row', async () => {
        const { rows } = await other.query('select count(*)::int as n from pg_locks where not granted');
        return rows[0].n > 0;
      });
      // …which is then deleted: the insert's foreign key finds no form.
      await other.query('delete from forms where id = $1', [form.id]);
      await other.query('commit');
      expectError(await pending, 404, 'form_not_found');
    } finally {
      await other.end();
    }
  });
});
