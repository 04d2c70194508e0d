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

/** The `days` UTC dates ending with `now`'s, oldest first, as `YYYY-MM-DD`. */
export function usageDays(now: Date, days: number): string[] {
  const today = Math.floor(now.getTime() / DAY_MS);
  return Array.from({ length: days }, (_, i) => utcDateOf(new Date((today - days + 1 + i) * DAY_MS)));
}
