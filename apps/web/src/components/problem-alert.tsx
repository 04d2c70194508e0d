import type { ReactNode } from 'react';
import { type Problem, waitPhrase } from '../api/problems.ts';

/** Sentences for the errors a person can act on, beyond the API's own message. */
function adviceFor(problem: Problem): ReactNode {
  if (problem.code === 'rate_limited') {
    return problem.retryAfterSeconds !== null
      ? `Too many attempts for now. You can try again in ${waitPhrase(problem.retryAfterSeconds)}.`
      : 'Too many attempts for now. Wait a little, then try again.';
  }
  if (problem.code === 'network_error') return null;
  if (problem.code === 'csrf_failed') return 'Open the dashboard from the address the server is configured with, then try again.';
  if (problem.code === 'internal_error' && problem.requestId) return `If it keeps happening, quote request id ${problem.requestId}.`;
  return null;
}

interface ProblemAlertProps {
  problem: Problem | null;
  /** A fuller explanation of this error, when the page knows better than the generic one. */
  explain?: (problem: Problem) => ReactNode;
  /** Details not shown beside a field (their field is not on this form). */
  unplacedDetails?: { path: string; message: string }[];
}

/** An error the person must read: announced by screen readers as it appears. */
export function ProblemAlert({ problem, explain, unplacedDetails = [] }: ProblemAlertProps) {
  if (!problem) return null;
  const explained = explain?.(problem);
  const advice = explained ?? adviceFor(problem);
  return (
    <div className="alert alert-error" role="alert">
      <p>{problem.message}</p>
      {advice && <p>{advice}</p>}
      {unplacedDetails.length > 0 && (
        <ul>
          {unplacedDetails.map((d) => (
            <li key={`${d.path}:${d.message}`}>
              {d.path ? <code>{d.path}</code> : null} {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
