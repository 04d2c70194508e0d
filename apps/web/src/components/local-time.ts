/**
 * An instant as a `datetime-local` input shows it: the same instant, in the browser's time zone
 * (`2026-12-24T17:00`); blank for none. What such an input holds goes back with `new Date(value)`.
 */
export function localInput(at: string | Date | null): string {
  if (!at) return '';
  const date = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
