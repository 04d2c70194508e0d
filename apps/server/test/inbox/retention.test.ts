/**
 * Retention: submissions older than their form's `retention_days`, and spam older than 30 days,
 * are deleted by a sweep that runs in short batches, once across replicas. The clock is the test's.
 */
import { sweepExpiredSubmissions } from '@lfk/api';
import { type Account, ENGINE, startTestServer, until, useTestServer } from '@lfk/server/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { inboxForm } from './fixtures.ts';

const DAY = 86_400_000;
const now = new Date('2026-11-25T12:00:00Z');
const t = useTestServer({}, { config: { now: () => now } });
let owner: Account;

beforeAll(async () => {
  owner = await t.signup();
});

let seq = 0;
/** `count` submissions to the form that arrived `daysAgo` days before now, written as the repository writes them. */
async function aged(formId: string, daysAgo: number, count = 1, status: 'ok' | 'spam' = 'ok') {
  await t.sql(
    `insert into submissions (id, form_id, data, source, status, spam_reason, created_at)
     select 'sub_' || lpad(to_hex(?::int * 100000 + g), 26, '0'), ?, '{"name":"x"}', 'browser', ?, ?, ? from generate_series(1, ?) g`,
    [++seq, formId, status, status === 'spam' ? 'honeypot' : null, new Date(now.getTime() - daysAgo * DAY), count],
  );
}

const remaining = (formId: string) => t.count('submissions where form_id = ?', [formId]);

async function expiredEvents() {
  const res = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events?limit=100`, { token: owner.token });
  return res.json.data.filter((e: { action: string }) => e.action === 'submissions.expired');
}

describe('the retention sweep', () => {
  it('deletes what is past each form’s retention and spam past 30 days, and records counts per form', async () => {
    const month = await inboxForm(t, owner, { retention_days: 30 });
    const forever = await inboxForm(t, owner);
    const day = await inboxForm(t, owner, { retention_days: 1 });
    await aged(month.id, 31, 3);
    await aged(month.id, 29, 2);
    await aged(forever.id, 400, 2);
    await aged(forever.id, 31, 1, 'spam');
    await aged(forever.id, 29, 1, 'spam');
    await aged(day.id, 1.01, 4);
    await aged(day.id, 0.5, 1);

    expect(await sweepExpiredSubmissions(t.server.db, now)).toBe(3 + 1 + 4);
    expect(await remaining(month.id)).toBe(2);
    expect(await remaining(forever.id)).toBe(3);
    expect(await remaining(day.id)).toBe(1);
    // Nothing more on a second pass.
    expect(await sweepExpiredSubmissions(t.server.db, now)).toBe(0);

    const events = await expiredEvents();
    const byForm = Object.fromEntries(events.map((e: { target: { id: string }; data: unknown; actor: unknown }) => [e.target.id, e.data]));
    expect(byForm).toEqual({ [month.id]: { retention: 3, spam: 0 }, [forever.id]: { retention: 0, spam: 1 }, [day.id]: { retention: 4, spam: 0 } });
    expect(events[0].actor).toEqual({ type: 'system', id: 'lfk' });
  });

  it('works in short batches, and two replicas sweeping at once delete each row once', async () => {
    const form = await inboxForm(t, owner, { retention_days: 7 });
    await aged(form.id, 8, 2500);
    await aged(form.id, 6, 5);
    // On PostgreSQL a second replica with a pool of its own; on the embedded database, one process sweeping twice at once.
    const replica = await startTestServer(ENGINE === 'postgresql' ? { DATABASE_URL: t.server.config.databaseUrl! } : {}, { config: { now: () => now } });
    try {
      const swept = await Promise.all([t.server.db, replica.server.db].map((db) => sweepExpiredSubmissions(db, now, 400)));
      expect(swept[0]! + swept[1]!).toBe(2500);
    } finally {
      await replica.close();
    }
    expect(await remaining(form.id)).toBe(5);
    const events = (await expiredEvents()).filter((e: { target: { id: string } }) => e.target.id === form.id);
    expect(events.reduce((n: number, e: { data: { retention: number } }) => n + e.data.retention, 0)).toBe(2500);
  });

  it('runs by itself on the server, every LFK_RETENTION_SWEEP_INTERVAL', async () => {
    const sweeping = await startTestServer({}, { config: { now: () => now, retentionSweepMs: 50 } });
    try {
      const form = await inboxForm(sweeping, await sweeping.signup(), { retention_days: 1 });
      await aged(form.id, 2, 3);
      await until('the sweep', async () => (await sweeping.count('submissions where form_id = ?', [form.id])) === 0);
    } finally {
      await sweeping.close();
    }
  });
});
