/**
 * Deleting submissions (one, by ids, everything before a time) and whole forms: the rows are gone
 * from the database with their emails and webhook deliveries, and the audit log says how many,
 * never which values. Submissions come with a key of the form's workspace; no sender runs here, so
 * their emails and deliveries wait where a test can see them go. The routes and their statuses are
 * the REST table's.
 */
import { ENGINE, until } from '@lfk/testing';
import { describe, expect, it } from 'vitest';
import { count, sql } from '../../../test/support/database.ts';
import { createContactForm, VALID } from '../../../test/support/forms.ts';
import { expectRefused, outcome } from '../../../test/support/refusals.ts';
import { key, member, outsider, owner, services, useTeamWithKey } from '../../../test/support/team.ts';
import { callerFor } from '../../../test/world.ts';

let clock = new Date('2026-11-25T12:00:00Z');
useTeamWithKey({ now: () => clock });

const SECRET_VALUE = 'private-value-7f3a';

const as = (token: string) => callerFor(services, token);
const inboxForm = (settings: Record<string, unknown> = {}) => createContactForm(services, owner, settings);
/** A submission sent with the workspace's key; answers its id. */
const post = async (formId: string, values: Record<string, unknown> = VALID) =>
  (await (await as(key)).submissions.create({ form_id: formId, data: values })).id;
const deleteOne = async (token: string, formId: string, id: string) => (await as(token)).submissions.delete({ form_id: formId, submission_id: id });
const deleteMany = async (token: string, formId: string, body: Record<string, unknown>) =>
  (await as(token)).submissions.deleteMany({ form_id: formId, ...body } as never);
const deleteForm = async (token: string, formId: string) => (await as(token)).forms.delete({ form_id: formId });

/** The form's submissions as stored, oldest first. */
const stored = (formId: string) => sql<{ id: string }>(services, 'select id from submissions where form_id = ? order by id', [formId]);

/** The notification emails and webhook deliveries a submission has, waiting. */
const sendsOf = async (submissionId: string) => ({
  emails: await count(services, 'outbox_emails where submission_id = ?', [submissionId]),
  deliveries: await count(services, 'webhook_deliveries where submission_id = ?', [submissionId]),
});

/** Makes the form's notify_email verified at once (the verification link is tested elsewhere). */
const verifiedNotifyEmail = (formId: string) =>
  sql(services, "update forms set notify_emails = jsonb_build_array(jsonb_build_object('email', ?::text, 'verified', true)) where id = ?", [
    'owner-inbox@example.com',
    formId,
  ]);

/** An endpoint whose name never resolves (no delivery is attempted here anyway): its deliveries wait. */
const unreachableWebhook = async (formId: string) =>
  (await (await as(owner.token)).webhooks.create({ form_id: formId, url: 'https://receiver.invalid/hook' })).id;

async function auditOf(formOrSubmission: string) {
  const { data } = await (await as(owner.token)).auditEvents.list({ workspace_id: owner.workspaceId, limit: 100 });
  expect(JSON.stringify(data)).not.toContain(SECRET_VALUE);
  return data.filter((e) => e.target?.id === formOrSubmission);
}

describe(`one submission (${ENGINE})`, () => {
  it('is gone, with its email and its deliveries; deleting it again is 404', async () => {
    const form = await inboxForm();
    await verifiedNotifyEmail(form.id);
    await unreachableWebhook(form.id);
    const id = await post(form.id, { ...VALID, message: SECRET_VALUE });
    const kept = await post(form.id);
    expect(await sendsOf(id)).toEqual({ emails: 1, deliveries: 1 });

    await deleteOne(member.token, form.id, id);
    expect((await stored(form.id)).map((s) => s.id)).toEqual([kept]);
    expect(await sendsOf(id)).toEqual({ emails: 0, deliveries: 0 });
    expect(await count(services, 'outbox_emails where body like ?', [`%${SECRET_VALUE}%`])).toBe(0);
    await expectRefused((await as(owner.token)).submissions.get({ form_id: form.id, submission_id: id }), 404, 'submission_not_found');
    await expectRefused(deleteOne(owner.token, form.id, id), 404, 'submission_not_found');

    const [event] = await auditOf(id);
    expect(event).toMatchObject({ action: 'submission.deleted', actor: { type: 'user', id: member.userId }, data: { form_id: form.id } });
  });

  it('a key cannot delete (it cannot read submissions); an outsider does not see the form; another form’s id is 404', async () => {
    const form = await inboxForm();
    const other = await inboxForm();
    const id = await post(form.id);
    await expectRefused(deleteOne(key, form.id, id), 403, 'session_required');
    await expectRefused(deleteOne(outsider.token, form.id, id), 404, 'form_not_found');
    await expectRefused(deleteOne(owner.token, other.id, id), 404, 'submission_not_found');
    expect(await stored(form.id)).toHaveLength(1);
  });
});

describe(`several submissions (${ENGINE})`, () => {
  it('by ids: only the form’s own are deleted, and counted once', async () => {
    const form = await inboxForm();
    const other = await inboxForm();
    const [a, b, c] = await Promise.all([post(form.id), post(form.id), post(form.id)]);
    const elsewhere = await post(other.id);
    const answer = await deleteMany(owner.token, form.id, { ids: [a, b, a, elsewhere, 'sub_00000000000000000000000000', 'nonsense'] });
    expect(answer).toEqual({ deleted: 2 });
    expect((await stored(form.id)).map((s) => s.id)).toEqual([c]);
    expect(await stored(other.id)).toHaveLength(1);
    const [event] = await auditOf(form.id);
    expect(event).toMatchObject({ action: 'submissions.deleted', data: { deleted: 2, ids: 6 } });
  });

  it('everything before a time, spam too, in batches whatever the number', async () => {
    const form = await inboxForm({ spam: { honeypot: '_gotcha' } });
    // 2,500 old submissions, written as the repository writes them, a day before the cut.
    await sql(
      services,
      "insert into submissions (id, form_id, data, source, status, created_at) select 'sub_' || lpad(to_hex(g), 26, '0'), ?, '{\"name\":\"Old\"}', " +
        "'browser', 'ok', ? from generate_series(1, 2500) g",
      [form.id, new Date(clock.getTime() - 86_400_000)],
    );
    await post(form.id, { ...VALID, _gotcha: 'bot' });
    expect(await count(services, "submissions where form_id = ? and status = 'spam'", [form.id])).toBe(1);
    clock = new Date(clock.getTime() + 60_000);
    const cut = clock.toISOString();
    clock = new Date(clock.getTime() + 60_000);
    const recent = await post(form.id);

    expect(await deleteMany(owner.token, form.id, { before: cut })).toEqual({ deleted: 2501 });
    expect((await stored(form.id)).map((s) => s.id)).toEqual([recent]);
    const [event] = await auditOf(form.id);
    expect(event).toMatchObject({ action: 'submissions.deleted', data: { deleted: 2501, before: cut } });
  });

  it('asks for ids or a time, not both, not neither; at most 100 ids', async () => {
    const form = await inboxForm();
    const bodies = [
      {},
      { ids: [] },
      { ids: ['sub_x'], before: clock.toISOString() },
      { ids: Array(101).fill('sub_x') },
      { before: 'yesterday' },
      { before: '0000-01-01T00:00:00Z' },
    ];
    for (const body of bodies) {
      await expectRefused(deleteMany(owner.token, form.id, body), 400, 'invalid_request', { what: JSON.stringify(body).slice(0, 80) });
    }
    await expectRefused(deleteMany(key, form.id, { before: clock.toISOString() }), 403, 'session_required');
  });
});

describe(`a whole form (${ENGINE})`, () => {
  it('an owner deletes it with everything it holds: submissions, emails, webhooks and deliveries', async () => {
    const form = await inboxForm();
    await verifiedNotifyEmail(form.id);
    const webhookId = await unreachableWebhook(form.id);
    const ids = await Promise.all([post(form.id, { ...VALID, message: SECRET_VALUE }), post(form.id)]);

    await expectRefused(deleteForm(member.token, form.id), 403, 'owner_required');
    await expectRefused(deleteForm(key, form.id), 403, 'session_required');
    await expectRefused(deleteForm(outsider.token, form.id), 404, 'form_not_found');
    expect(await stored(form.id)).toHaveLength(2);

    await deleteForm(owner.token, form.id);
    expect(await count(services, 'forms where id = ?', [form.id])).toBe(0);
    expect(await count(services, 'submissions where form_id = ?', [form.id])).toBe(0);
    expect(await count(services, 'webhook_endpoints where id = ?', [webhookId])).toBe(0);
    for (const id of ids) expect(await sendsOf(id)).toEqual({ emails: 0, deliveries: 0 });
    expect(await count(services, 'outbox_emails where body like ?', [`%${SECRET_VALUE}%`])).toBe(0);

    await expectRefused((await as(owner.token)).forms.get({ form_id: form.id }), 404, 'form_not_found');
    await expectRefused(post(form.id), 404, 'form_not_found');
    await expectRefused(deleteForm(owner.token, form.id), 404, 'form_not_found');
    const [event] = await auditOf(form.id);
    expect(event).toMatchObject({ action: 'form.deleted', actor: { type: 'user', id: owner.userId }, data: { name: 'Contact', submissions: 2 } });
  });

  it('submissions racing the form’s deletion: each taken or 404 form_not_found, never a 500, and nothing is left', async () => {
    const form = await inboxForm();
    const posts = () => Array.from({ length: 20 }, () => outcome(post(form.id)));
    const answers = await Promise.all([...posts(), outcome(deleteForm(owner.token, form.id)), ...posts()]);
    const [deleted] = answers.splice(20, 1);
    expect(deleted).toBe('done');
    for (const answer of answers) expect(['done', '404 form_not_found']).toContain(answer);
    expect(await count(services, 'submissions where form_id = ?', [form.id])).toBe(0);
  });

  // Only PostgreSQL has a second connection to hold the form while a submission waits on it.
  it.skipIf(ENGINE !== 'postgresql')('a submission whose form is deleted while it is written: 404 form_not_found, not a 500', async () => {
    const form = await inboxForm();
    let pending: Promise<string> | undefined;
    await services.db.fork().transactional(async (em) => {
      await em.execute('select id from forms where id = ? for update', [form.id]);
      // The submission reads the form, then its insert waits for the row this transaction holds…
      pending = outcome(post(form.id));
      await until('the submission to wait for the form’s row', async () => {
        const [row] = await em.execute<{ n: number }[]>('select count(*)::int as n from pg_locks where not granted');
        return row!.n > 0;
      });
      // …which is then deleted: the insert's foreign key finds no form.
      await em.execute('delete from forms where id = ?', [form.id]);
    });
    expect(await pending).toBe('404 form_not_found');
  });
});
