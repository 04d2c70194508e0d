/**
 * A form post's values by name, as a browser sends them (urlencoded or multipart): a name sent more
 * than once becomes a list, which validation then refuses for any field but a file field's.
 */
export function sentValues(entries: Iterable<readonly [string, string]>): Record<string, string | string[]> {
  const values = new Map<string, string | string[]>();
  for (const [name, value] of entries) {
    const seen = values.get(name);
    values.set(name, seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value]);
  }
  return Object.fromEntries(values);
}
