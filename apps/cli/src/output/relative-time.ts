const UNITS: [unit: string, seconds: number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * "2 minutes ago", "in 3 days", "just now": an ISO timestamp as a person reads it. Written out
 * rather than with `Intl.RelativeTimeFormat`, whose first use loads ICU's data: ~20 ms of every
 * `lfk keys list`. The words are English only, as the rest of the CLI's are.
 */
export function relativeTime(iso: string, now = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  const [unit, size] = UNITS.find(([, size]) => Math.abs(seconds) >= size)!;
  const count = Math.trunc(Math.abs(seconds) / size);
  const amount = `${String(count).replace(/\B(?=(\d{3})+$)/g, ',')} ${unit}${count === 1 ? '' : 's'}`;
  return seconds < 0 ? `${amount} ago` : `in ${amount}`;
}
