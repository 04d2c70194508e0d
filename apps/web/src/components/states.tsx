import type { ReactNode } from 'react';
import { problemOf } from '../api/problems.ts';
import { ProblemAlert } from './problem-alert.tsx';

/** While a page's data is on its way. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

/** A page's data could not be read: what the API said, and a way to try again. */
export function LoadError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <div className="load-error">
      <ProblemAlert problem={problemOf(error)} />
      <button type="button" onClick={retry}>
        Try again
      </button>
    </div>
  );
}

/** Nothing here yet, and what to do about it. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children}
    </div>
  );
}
