import type { RouterOutputs } from '@lfk/api';

type UsageDay = RouterOutputs['apiKeys']['usage']['data'][number];

const WIDTH = 300;
const HEIGHT = 60;
const day = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayOf = (date: string) => day.format(new Date(`${date}T00:00:00Z`));
const requests = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'request' : 'requests'}`;

/**
 * Requests per UTC day as bars (each bar's title gives its day and count), summed in the caption,
 * with axes: the count scale (0 to the busiest day's) and the days (first, middle, last); the same
 * numbers as a table for screen readers and for reading exact values.
 */
export function UsageChart({ days }: { days: UsageDay[] }) {
  const total = days.reduce((sum, d) => sum + d.requests, 0);
  const most = Math.max(1, ...days.map((d) => d.requests));
  const slot = WIDTH / Math.max(1, days.length);
  const first = days[0];
  const last = days[days.length - 1];
  const middle = days[Math.floor((days.length - 1) / 2)];
  const span = first && last ? `${dayOf(first.date)} – ${dayOf(last.date)} (UTC)` : '';
  return (
    <figure className="usage">
      <figcaption>
        {requests(total)} in the last {days.length} days <span className="muted">{span}</span>
      </figcaption>
      <div className="usage-plot" aria-hidden="true">
        <div className="usage-y">
          <span>{most.toLocaleString('en')}/day</span>
          <span>0</span>
        </div>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true" className="usage-bars">
        <line x1="0" y1="0.5" x2={WIDTH} y2="0.5" className="usage-grid" />
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="usage-axis" />
        {days.map((d, i) => {
          // A day with requests always shows, however small beside the busiest one.
          const height = d.requests === 0 ? 0 : Math.max(2, (d.requests / most) * (HEIGHT - 2));
          return (
            <rect key={d.date} x={i * slot + slot * 0.15} y={HEIGHT - height} width={slot * 0.7} height={height} className="usage-bar">
              <title>{`${dayOf(d.date)}: ${requests(d.requests)}`}</title>
            </rect>
          );
        })}
      </svg>
        {first && last && middle && (
          <div className="usage-x">
            <span>{dayOf(first.date)}</span>
            <span>{dayOf(middle.date)}</span>
            <span>{dayOf(last.date)}</span>
          </div>
        )}
      </div>
      <details>
        <summary>Requests by day</summary>
        <table className="table usage-table">
          <caption className="visually-hidden">Requests this key authenticated per UTC day, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Requests</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <td data-label="Day (UTC)">{dayOf(d.date)}</td>
                <td data-label="Requests">{d.requests.toLocaleString('en')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
