import { usageError } from '../errors.ts';

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 7 * 86_400 };

/** `30d`, `24h`, `90m`, `2w`, `3600s` (or `0`) as seconds; a usage error naming the flag otherwise. */
export function parseDuration(flag: string, value: string): number {
  if (value === '0') return 0;
  const match = /^(\d{1,7})([smhdw])$/.exec(value.trim());
  if (!match) {
    throw usageError('invalid_duration', `${flag} takes a duration such as 90m, 24h, 30d or 2w: ${JSON.stringify(value)}.`);
  }
  return Number(match[1]) * DURATION_UNITS[match[2]!]!;
}

/** Seconds as the largest whole unit that says them exactly: `3 days`, `90 minutes`, `1 second`. */
export function describeDuration(seconds: number): string {
  const [unit, size] = (
    [
      ['week', 7 * 86_400],
      ['day', 86_400],
      ['hour', 3600],
      ['minute', 60],
      ['second', 1],
    ] as const
  ).find(([, size]) => seconds % size === 0)!;
  const count = seconds / size;
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * A time as a flag gives it: a duration back from `now` (`2h`, `30d`) or an ISO 8601 time, as the
 * API takes it; a usage error naming the flag otherwise.
 */
export function timeOrAgo(flag: string, value: string, now: Date): string {
  if (/^\d{1,7}[smhdw]$/.test(value.trim())) return new Date(now.getTime() - parseDuration(flag, value) * 1000).toISOString();
  if (/^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value))) return value;
  throw usageError('invalid_time', `${flag} takes a duration back from now (90m, 24h, 30d) or a time (2026-11-01T00:00:00Z): ${JSON.stringify(value)}.`);
}
