import type { UseQueryResult } from '@tanstack/react-query';
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

interface LoadedProps<T, E> {
  query: UseQueryResult<T, E>;
  /** What is on its way, as in "Loading {what}…". */
  what: string;
  children: (data: T) => ReactNode;
}

/** A query's data once it is here; until then that it is loading, or why it failed and a way to try again. */
export function Loaded<T, E>({ query, what, children }: LoadedProps<T, E>) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) return <LoadError error={query.error} retry={() => query.refetch()} />;
  return children(query.data);
}

/** One page of a cursor-paged list, as every list procedure answers. */
export interface ListPage<Row> {
  data: Row[];
  next_cursor: string | null;
}

interface LoadedListProps<Row, E> extends LoadedProps<ListPage<Row>, E> {
  /** Shown instead of the list when it holds nothing: what to do about it. */
  empty: ReactNode;
}

/** A list's page once it is here, as `Loaded` does, and `empty` when there is nothing in it. */
export function LoadedList<Row, E>({ query, what, empty, children }: LoadedListProps<Row, E>) {
  return (
    <Loaded query={query} what={what}>
      {(page) => (page.data.length === 0 ? empty : children(page))}
    </Loaded>
  );
}
