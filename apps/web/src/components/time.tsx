const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "3 minutes ago". */
export function ago(iso: string, now = Date.now()): string {
  let amount = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return absolute.format(new Date(iso));
}

/** A moment as people read it ("3 minutes ago"), the exact time on hover and for machines. */
export function Time({ iso, never = '—' }: { iso: string | null; never?: string }) {
  if (!iso) return <span>{never}</span>;
  return (
    <time dateTime={iso} title={absolute.format(new Date(iso))}>
      {ago(iso)}
    </time>
  );
}
