import { useState } from 'react';

/**
 * Pages through a cursor-paged list: the cursors of the pages already seen, so "Newer" goes back
 * exactly where it came from.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  return {
    cursor,
    pageNumber: cursors.length,
    older: (next: string) => setCursors((list) => [...list, next]),
    newer: () => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)),
    reset: () => setCursors([undefined]),
  };
}

interface PagerProps {
  label: string;
  pages: ReturnType<typeof useCursorPages>;
  /** The cursor of the page after the one shown; null on the last page. */
  nextCursor: string | null;
}

/** "Newer" and "Older" under a paged list; nothing while the list fits on one page. */
export function Pager({ label, pages, nextCursor }: PagerProps) {
  if (pages.pageNumber === 1 && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" onClick={pages.newer} disabled={pages.pageNumber === 1}>
        Newer
      </button>
      <span>Page {pages.pageNumber}</span>
      <button type="button" onClick={() => nextCursor && pages.older(nextCursor)} disabled={!nextCursor}>
        Older
      </button>
    </nav>
  );
}
