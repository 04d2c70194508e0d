/**
 * Expiry reminders (issue 14): owners are emailed 7 days and 1 day before a key expires, through
 * the outbox, once each — even with several replicas sweeping at the same moment.
 */
import { sweepKeyLifecycle } from '@lfk/api';
import { ENGINE, startTestServer, TEST_DATABASE_URL, until } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditActions, createKey, DAY, emailsTo, HOUR, type Replica, secondReplica, useKeysServer, testClock } from './fixtures.ts';

const clock = testClock();
const t = useKeysServer(clock);
let b: Replica | undefined;
beforeAll(async () => {
  // On PostgreSQL a second replica sweeps the same database; PGlite has one process, which sweeps twice at once.
  if (TEST_DATABASE_URL) b = await secondReplica(t, clock);
});
afterAll(async () => {
  await b?.close();
});

/** Both replicas (or two sweeps of the one) at the same instant, three times over. */
async function sweepEverywhere(): Promise<void> {
  const dbs = [t.server.db, b?.server.db ?? t.server.db];
  for (let round = 0; round < 3; round++) {
    await Promise.all(dbs.map((db) => sweepKeyLifecycle(db, clock.now(), 'http://lfk.test')));
  }
}

describe(`expiry reminders (${ENGINE}, ${TEST_DATABASE_URL ? 'two replicas' : 'two sweeps at once'})`, () => {
  it('emails every owner 7 days and 1 day before, once each, then records the expiry once', async () => {
    const owner = await t.signup();
    const coOwner = await t.signup();
    await t.addMember(owner.workspaceId, coOwner.email, 'owner');
    const start = clock.now().getTime();
    const key = await createKey(t, owner, { name: 'quarterly', expires_at: new Date(start + 30 * DAY).toISOString() });
    const expiresAt = new Date(key.json.expires_at).getTime();

    await sweepEverywhere();
    expect(await emailsTo(t, owner.email, 'api_key_expiring')).toEqual([]);

    clock.set(new Date(expiresAt - 7 * DAY - 1000));
    await sweepEverywhere();
    expect(await emailsTo(t, owner.email, 'api_key_expiring')).toEqual([]);

    clock.set(new Date(expiresAt - 7 * DAY));
    await sweepEverywhere();
    for (const o of [owner, coOwner]) {
      const mail = await emailsTo(t, o.email, 'api_key_expiring');
      expect(mail.map((m) => m.subject)).toEqual([`Your API key ${key.json.prefix}… expires in 7 days`]);
    }

    clock.set(new Date(expiresAt - DAY + HOUR));
    await sweepEverywhere();
    expect(await emailsTo(t, owner.email, 'api_key_expiring')).toHaveLength(2);
    clock.set(new Date(expiresAt - DAY));
    await sweepEverywhere();
    for (const o of [owner, coOwner]) {
      const mail = await emailsTo(t, o.email, 'api_key_expiring');
      expect(mail.map((m) => m.subject)).toEqual([`Your API key ${key.json.prefix}… expires in 7 days`, `Your API key ${key.json.prefix}… expires in 1 day`]);
    }

    clock.set(new Date(expiresAt));
    await sweepEverywhere();
    expect(await auditActions(t, owner.workspaceId, 'api_key.expired')).toHaveLength(1);
    expect(await emailsTo(t, owner.email, 'api_key_expiring')).toHaveLength(2);
  });

  it('a key made closer to its expiry than a reminder gets only the reminders still ahead', async () => {
    const owner = await t.signup();
    const now = clock.now().getTime();
    const threeDays = await createKey(t, owner, { expires_at: new Date(now + 3 * DAY).toISOString() });
    await createKey(t, owner, { expires_at: new Date(now + 12 * HOUR).toISOString() });
    await sweepEverywhere();
    expect(await emailsTo(t, owner.email, 'api_key_expiring')).toEqual([]);
    clock.set(new Date(new Date(threeDays.json.expires_at).getTime() - DAY));
    await sweepEverywhere();
    expect((await emailsTo(t, owner.email, 'api_key_expiring')).map((m) => m.subject)).toEqual([`Your API key ${threeDays.json.prefix}… expires in 1 day`]);
  });

  it("the server's own timer sweeps: a reminder is queued and sent without anyone asking", async () => {
    // A server whose sweep runs every 50 ms (the others' sweeps never run on their own).
    // Its own clock, at the real time: sessions are stamped by it.
    const own = testClock();
    const sweeping = await startTestServer({}, { config: { keyLifecycleSweepMs: 50, now: own.now } });
    try {
      const owner = await sweeping.signup();
      await createKey(sweeping, owner, { expires_at: new Date(own.now().getTime() + 2 * DAY).toISOString() });
      own.advance(DAY + HOUR);
      await until('the 1-day reminder sent', async () => {
        const rows = await sweeping.sql<{ status: string }>(`select status from outbox_emails where "to" = ? and kind = 'api_key_expiring'`, [owner.email]);
        return rows.length === 1 && rows[0]!.status === 'sent';
      });
    } finally {
      await sweeping.close();
    }
  });
});
