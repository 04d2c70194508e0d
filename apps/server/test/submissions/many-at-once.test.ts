/**
 * Issue 39: submissions that arrive together. On the embedded database they are written in groups
 * (packages/db/src/group-commit.ts); on PostgreSQL side by side. Either way each is stored once with
 * its own answer and its notification, and one that cannot be written fails alone.
 */
import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { createContactForm, ENGINE, ORIGIN, submit, useTestServer, VALID } from '@lfk/server/testing';
import { newId, Submission } from '@lfk/db';
import { describe, expect, it } from 'vitest';

const t = useTestServer();

describe(`many submissions at once (${ENGINE})`, () => {
  it('over HTTP: every one is answered 201 with its own id, and stored once', async () => {
    const owner = await t.signup();
    const form = await createContactForm(t, owner);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => submit(t, form.id, { ...VALID, message: `number ${i}` }, { origin: ORIGIN })));
    expect(answers.map((res) => res.status)).toEqual(Array(40).fill(201));
    const ids = answers.map((res) => res.json.id as string);
    expect(new Set(ids).size).toBe(40);
    const stored = await t.sql<{ id: string; message: string }>(`select id, data->>'message' as message from submissions where form_id = ?`, [form.id]);
    expect(stored.map((row) => row.id).sort()).toEqual([...ids].sort());
    expect(stored.map((row) => row.message).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `number ${i}`).sort());
  });

  it('written together, with no email, one or two: one for a form that does not exist fails alone, and nothing of it is kept', async () => {
    const owner = await t.signup();
    const form = await createContactForm(t, owner);
    const now = new Date();
    // The even ones send an email, every sixth a second one too (another address, say).
    const subjects = (i: number) => (i % 6 === 0 ? [`n ${i}`, `n ${i} again`] : i % 2 === 0 ? [`n ${i}`] : []);
    const write = (formId: string, i: number) =>
      t.server.db
        .fork()
        .getRepository(Submission)
        .writeNow(
          { formId, data: { n: i }, source: 'browser', apiKeyId: null, status: 'ok', spamReason: null, spamScore: null, spamReasons: null },
          now,
          (record) => subjects(i).map((subject) => ({ kind: 'submission', to: 'owner@example.com', subject, body: `submission ${record.id}` })),
        );
    const missing = newId('form');
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => write(i === 17 ? missing : form.id, i)));
    const refused = outcomes.flatMap((outcome, i) => (outcome.status === 'rejected' ? [{ i, reason: outcome.reason }] : []));
    expect(refused.map(({ i }) => i)).toEqual([17]);
    expect(refused[0]!.reason).toBeInstanceOf(ForeignKeyConstraintViolationException);
    const written = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.id] : []));
    expect(await t.count('submissions where form_id = ?', [form.id])).toBe(29);
    const emails = await t.sql<{ submission_id: string; subject: string }>(
      `select submission_id, subject from outbox_emails where submission_id in (${written.map(() => '?').join(', ')})`,
      written,
    );
    // 17 is odd, and refused anyway: 15 submissions send 20 emails, each with its own submission.
    expect(emails.map((e) => e.subject).sort()).toEqual(
      Array.from({ length: 30 }, (_, i) => subjects(i))
        .flat()
        .sort(),
    );
    expect(emails).toHaveLength(20);
    expect(await t.count('submissions where form_id = ?', [missing])).toBe(0);
  });
});
