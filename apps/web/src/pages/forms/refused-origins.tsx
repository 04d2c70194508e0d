import { Time } from '../../components/time.tsx';
import type { Form } from './form-values.ts';

/**
 * The origins the form refused lately: a page that posts it from an origin missing from the list
 * shows up here, with a button that adds it to the list (saved with the other changes).
 */
export function RefusedOrigins({ form, onAllow }: { form: Form; onAllow: (origin: string) => void }) {
  if (form.submission_mode !== 'browser' || form.refused_origins.length === 0) return null;
  return (
    <div className="notice" role="note">
      <p>Refused lately, from pages not on the list:</p>
      <ul className="refused-origins">
        {form.refused_origins.map((refused) => (
          <li key={refused.origin}>
            <code className="wrap-anywhere">{refused.origin}</code>{' '}
            <span className="muted">
              (<Time iso={refused.last_refused_at} />)
            </span>{' '}
            {!form.allowed_origins.includes(refused.origin) && (
              <button type="button" className="secondary" onClick={() => onAllow(refused.origin)}>
                Add to the list
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
