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
  pageNumber: number;
  nextCursor: string | null;
  onOlder: (cursor: string) => void;
  onNewer: () => void;
}

export function Pager({ label, pageNumber, nextCursor, onOlder, onNewer }: PagerProps) {
  if (pageNumber === 1 && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" onClick={onNewer} disabled={pageNumber === 1}>
        Newer
      </button>
      <span>Page {pageNumber}</span>
      <button type="button" onClick={() => nextCursor && onOlder(nextCursor)} disabled={!nextCursor}>
        Older
      </button>
    </nav>
  );
}
