/**
 * Retention: submissions older than their form's `retention_days`, and spam older than 30 days,
 * are deleted by a sweep (`sweepExpiredSubmissions`, called here with the test's `now`) that runs
 * in short batches, once across replicas. That a server runs it by itself, every
 * LFK_RETENTION_SWEEP_INTERVAL, is apps/server/test/inbox/retention.test.ts's.
 */
import { replicaOf, sharedDatabase } from '@lfk/db/testing';
import { ENGINE } from '@lfk/testing';
import { DAY_MS } from '@lfk/vocabulary';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { sweepExpiredSubmissions, sweepPastEvents } from './retention-sweep.ts';
import { count, sql } from '../../../test/support/database.ts';
import { createContactForm } from '../../../test/support/forms.ts';
import { callerFor, type Person, person, testServices } from '../../../test/world.ts';

const now = new Date('2026-11-25T12:00:00Z');
let services: Services;
let owner: Person;

beforeAll(async () => {
  services = await testServices({ now: () => now });
  owner = await person(services);
});

const inboxForm = (settings: Record<string, unknown> = {}) => createContactForm(services, owner, settings);

let seq = 0;
/** `n` submissions to the form that arrived `daysAgo` days before now, written as the repository writes them. */
async function aged(formId: string, daysAgo: number, n = 1, status: 'ok' | 'spam' = 'ok') {
  await sql(
    services,
    `insert into submissions (id, form_id, data, source, status, spam_reason, created_at)
     select 'sub_' || lpad(to_hex(?::int * 100000 + g), 26, '0'), ?, '{"name":"x"}', 'browser', ?, ?, ? from generate_series(1, ?) g`,
    [++seq, formId, status, status === 'spam' ? 'honeypot' : null, new Date(now.getTime() - daysAgo * DAY_MS), n],
  );
}

const remaining = (formId: string) => count(services, 'submissions where form_id = ?', [formId]);

async function expiredEvents() {
  const { data } = await (await callerFor(services, owner.token)).auditEvents.list({ workspace_id: owner.workspaceId, limit: 100 });
  return data.filter((e) => e.action === 'submissions.expired');
}

describe(`the retention sweep (${ENGINE})`, () => {
  it('deletes what is past each form’s retention and spam past 30 days, and records counts per form', async () => {
    const month = await inboxForm({ retention_days: 30 });
    const forever = await inboxForm();
    const day = await inboxForm({ retention_days: 1 });
    await aged(month.id, 31, 3);
    await aged(month.id, 29, 2);
    await aged(forever.id, 400, 2);
    await aged(forever.id, 31, 1, 'spam');
    await aged(forever.id, 29, 1, 'spam');
    await aged(day.id, 1.01, 4);
    await aged(day.id, 0.5, 1);

    expect(await sweepExpiredSubmissions(services.db, now)).toBe(3 + 1 + 4);
    expect(await remaining(month.id)).toBe(2);
    expect(await remaining(forever.id)).toBe(3);
    expect(await remaining(day.id)).toBe(1);
    // Nothing more on a second pass.
    expect(await sweepExpiredSubmissions(services.db, now)).toBe(0);

    const events = await expiredEvents();
    const byForm = Object.fromEntries(events.map((e) => [e.target!.id, e.data]));
    expect(byForm).toEqual({ [month.id]: { retention: 3, spam: 0 }, [forever.id]: { retention: 0, spam: 1 }, [day.id]: { retention: 4, spam: 0 } });
    expect(events[0]!.actor).toEqual({ type: 'system', id: 'lfk' });
  });

  it('works in short batches, and two replicas sweeping at once delete each row once', async () => {
    const form = await inboxForm({ retention_days: 7 });
    await aged(form.id, 8, 2500);
    await aged(form.id, 6, 5);
    // On PostgreSQL a second replica with a pool of its own; on the embedded database, one process sweeping twice at once.
    const { url } = await sharedDatabase();
    const replica = url ? await replicaOf(url) : { db: services.db, release: async () => {} };
    try {
      const swept = await Promise.all([services.db, replica.db].map((db) => sweepExpiredSubmissions(db, now, 400)));
      expect(swept[0]! + swept[1]!).toBe(2500);
    } finally {
      await replica.release();
    }
    expect(await remaining(form.id)).toBe(5);
    const events = (await expiredEvents()).filter((e) => e.target!.id === form.id);
    expect(events.reduce((n, e) => n + (e.data as { retention: number }).retention, 0)).toBe(2500);
  });

  it('forgets the forms’ recorded events once a recover no longer reaches them (30 days)', async () => {
    const form = await inboxForm();
    const caller = await callerFor(services, owner.token);
    // A form closed and reopened by a person: two recorded events, made now.
    await caller.forms.update({ form_id: form.id, closed: true });
    await caller.forms.update({ form_id: form.id, closed: false });
    await sql(services, "update form_events set created_at = ? where form_id = ? and type = 'form.closed'", [new Date(now.getTime() - 31 * DAY_MS), form.id]);
    expect(await sweepPastEvents(services.db, now)).toBe(1);
    expect(await count(services, 'form_events where form_id = ?', [form.id])).toBe(1);
    expect(await count(services, "form_events where form_id = ? and type = 'form.reopened'", [form.id])).toBe(1);
  });
});
