/** A day in milliseconds: lfk counts days in UTC, where every day has this many. */
export const DAY_MS = 86_400_000;

/** `at`'s UTC date, `YYYY-MM-DD`. */
export const utcDateOf = (at: Date): string => at.toISOString().slice(0, 10);
