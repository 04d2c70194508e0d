/** What an object key may be: lowercase letters and digits, made by lfk, never by a user. */
const OBJECT_KEY = /^[a-z0-9]{2,128}$/;

export const isObjectKey = (key: string): boolean => OBJECT_KEY.test(key);

/**
 * Refuses a key that is not one lfk makes. A key never comes from a request, so a bad one is a bug:
 * thrown, not answered. Checked before any path or URL is built from it (no `../`, no `/`).
 */
export function assertObjectKey(key: string): void {
  if (!isObjectKey(key)) throw new Error(`not an object key (2 to 128 of [a-z0-9]): ${JSON.stringify(key.slice(0, 200))}`);
}
