import type { RouterOutputs } from '@lfk/client';
import { describeRefusals, totalRefused } from '@lfk/vocabulary';

type UsageDay = RouterOutputs['apiKeys']['usage']['data'][number];
const WIDTH = 300;
const HEIGHT = 60;
const day = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayOf = (date: string) => day.format(new Date(`${date}T00:00:00Z`));
const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
const requests = (n: number) => count(n, 'request', 'requests');

const refusedOn = (d: UsageDay) => totalRefused(d.refused);

/**
 * Requests per UTC day as stacked bars: accepted ones, and above them the refused ones (the key
 * had stopped working, or the address was not allowed), so a key still being tried after a roll
 * or a revoke shows. Each bar's title gives its day and counts; the caption sums them; axes give
 * the scale (0 to the busiest day's) and the days (first, middle, last); a legend says which is
 * which; the same numbers as a table for screen readers and for exact values.
 */
export function UsageChart({ days }: { days: UsageDay[] }) {
  const accepted = days.reduce((sum, d) => sum + d.requests, 0);
  const refused = days.reduce((sum, d) => sum + refusedOn(d), 0);
  const most = Math.max(1, ...days.map((d) => d.requests + refusedOn(d)));
  const slot = WIDTH / Math.max(1, days.length);
  const first = days[0];
  const last = days[days.length - 1];
  const middle = days[Math.floor((days.length - 1) / 2)];
  const span = first && last ? `${dayOf(first.date)} – ${dayOf(last.date)} (UTC)` : '';
  // A day with any requests always shows, however small beside the busiest one.
  const heightOf = (n: number) => (n === 0 ? 0 : Math.max(2, (n / most) * (HEIGHT - 2)));
  return (
    <figure className="usage">
      <figcaption>
        {requests(accepted)} and {count(refused, 'refusal', 'refusals')} in the last {days.length} days <span className="muted">{span}</span>
      </figcaption>
      <ul className="usage-legend" aria-hidden="true">
        <li>
          <span className="usage-swatch usage-swatch-accepted" /> Accepted
        </li>
        <li>
          <span className="usage-swatch usage-swatch-refused" /> Refused (the key had stopped, or the address was not allowed)
        </li>
      </ul>
      <div className="usage-plot" aria-hidden="true">
        <div className="usage-y">
          <span>{most.toLocaleString('en')}/day</span>
          <span>0</span>
        </div>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true" className="usage-bars">
          <line x1="0" y1="0.5" x2={WIDTH} y2="0.5" className="usage-grid" />
          <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="usage-axis" />
          {days.map((d, i) => {
            const acceptedHeight = heightOf(d.requests);
            const refusedHeight = heightOf(refusedOn(d));
            const x = i * slot + slot * 0.15;
            const refusals = refusedOn(d) > 0 ? `, ${count(refusedOn(d), 'refusal', 'refusals')} (${describeRefusals(d.refused)})` : '';
            const title = `${dayOf(d.date)}: ${requests(d.requests)}${refusals}`;
            return (
              <g key={d.date}>
                <title>{title}</title>
                <rect x={x} y={HEIGHT - acceptedHeight} width={slot * 0.7} height={acceptedHeight} className="usage-bar" />
                <rect x={x} y={HEIGHT - acceptedHeight - refusedHeight} width={slot * 0.7} height={refusedHeight} className="usage-bar-refused" />
              </g>
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
          <caption className="visually-hidden">Requests that presented this key per UTC day, accepted and refused, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Accepted</th>
              <th scope="col">Refused</th>
              <th scope="col">Why refused</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <td data-label="Day (UTC)">{dayOf(d.date)}</td>
                <td data-label="Accepted">{d.requests.toLocaleString('en')}</td>
                <td data-label="Refused">{refusedOn(d).toLocaleString('en')}</td>
                <td data-label="Why refused">{describeRefusals(d.refused) || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
