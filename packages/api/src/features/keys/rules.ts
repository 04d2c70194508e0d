import type { NewApiKey } from '@lfk/db';
import { API_KEY_EXPIRY_REMINDER_DAYS, DAY_MS, utcDateOf } from '@lfk/vocabulary';

/**
 * The nearest reminder already due when a key is made to expire at `expiresAt`: an owner who
 * chooses a 3-day key is reminded 1 day before, not told at once that it ends within 7.
 */
export function initialReminder(expiresAt: Date, now: Date): number | null {
  const ahead = expiresAt.getTime() - now.getTime();
  const due = API_KEY_EXPIRY_REMINDER_DAYS.filter((days) => ahead <= days * DAY_MS);
  return due.length === 0 ? null : Math.min(...due);
}

/**
 * A new key's row, created or a roll's successor: who made it in which workspace, what its owner
 * chose (a successor keeps its predecessor's), its secret's prefix and hash, and its expiry with the
 * first reminder already due.
 */
export function newKeyRow(
  by: { workspaceId: string; createdBy: string },
  chosen: { name?: string | null; description?: string | null; allowedIps?: string[] | null },
  secret: { prefix: string; hash: string },
  expiresAt: Date | null,
  now: Date,
): NewApiKey {
  return {
    ...by,
    name: chosen.name ?? null,
    description: chosen.description ?? null,
    allowedIps: chosen.allowedIps ?? null,
    prefix: secret.prefix,
    keyHash: secret.hash,
    expiresAt,
    expiryReminderDays: expiresAt ? initialReminder(expiresAt, now) : null,
  };
}

/** The `days` UTC dates ending with `now`'s, oldest first, as `YYYY-MM-DD`. */
export function usageDays(now: Date, days: number): string[] {
  const today = Math.floor(now.getTime() / DAY_MS);
  return Array.from({ length: days }, (_, i) => utcDateOf(new Date((today - days + 1 + i) * DAY_MS)));
}
