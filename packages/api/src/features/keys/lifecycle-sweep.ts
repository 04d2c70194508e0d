import { ApiKey, AuditEvent, type ChangedKey, type Database } from '@lfk/db';
import { API_KEY_EXPIRY_REMINDER_DAYS } from '@lfk/vocabulary';
import { emailOwners } from '../../infrastructure/outbox.ts';
import { expiryReminderEmail } from './emails.ts';
import { SYSTEM_ACTOR } from '../../trpc.ts';

export interface SweepOutcome {
  /** Keys whose revocation was written (expired, or a roll's grace ended). */
  revoked: ChangedKey[];
  /** Keys whose owners were sent an expiry reminder, with how many days ahead. */
  reminded: { key: ChangedKey; days: number }[];
}

/**
 * The periodic part of a key's life, safe to run on every replica at once: each change is a
 * conditional update that hands a key to exactly one sweep, made in the transaction that also
 * writes its audit event or queues its emails.
 *
 * 1. Keys past their expiry are written down as revoked (they were refused from that instant
 *    already: verification reads the expiry, not this sweep). An `api_key.expired` event is
 *    recorded for a key that expired; a rolled key's end was recorded by its `api_key.rolled`.
 * 2. Owners are emailed 7 days and 1 day before a key expires, once each; nearest first, so a
 *    key that skipped the 7-day mark (the sweep was down) gets only the 1-day one.
 */
export async function sweepKeyLifecycle(db: Database, now: Date, publicUrl: string): Promise<SweepOutcome> {
  const revoked = await db.fork().transactional(async (em) => {
    const keys = await em.getRepository(ApiKey).revokeExpired(now);
    const audit = em.getRepository(AuditEvent);
    for (const key of keys) {
      if (key.rolledTo !== null) continue;
      audit.record({
        workspaceId: key.workspaceId,
        action: 'api_key.expired',
        actor: SYSTEM_ACTOR,
        target: { type: 'api_key', id: key.id },
        data: { expired_at: key.expiresAt?.toISOString() ?? null },
      });
    }
    return keys;
  });
  const reminded: SweepOutcome['reminded'] = [];
  for (const days of [...API_KEY_EXPIRY_REMINDER_DAYS].sort((a, b) => a - b)) {
    await db.fork().transactional(async (em) => {
      for (const key of await em.getRepository(ApiKey).takeExpiryReminders(days, now)) {
        await emailOwners(em, key.workspaceId, (to) => expiryReminderEmail({ to, key, days, publicUrl }));
        reminded.push({ key, days });
      }
    });
  }
  return { revoked, reminded };
}
