import { useEffect } from 'react';

/** The tab's title names the page and the workspace, so several open tabs can be told apart. */
export function usePageTitle(...parts: string[]): void {
  const title = [...parts, 'lfk'].join(' · ');
  useEffect(() => {
    document.title = title;
  }, [title]);
}
