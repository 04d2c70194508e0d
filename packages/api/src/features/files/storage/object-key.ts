import { randomBytes } from 'node:crypto';

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

/** An uploaded file's object key: 16 random bytes in hex, so it says nothing of the file, its form or its workspace. */
export const newObjectKey = (): string => randomBytes(16).toString('hex');

const UPLOAD_KEY = /^[0-9a-f]{32}$/;

/** Whether `key` has the shape `newObjectKey` makes: the only objects the orphan sweep may take for an upload's. */
export const isUploadKey = (key: string): boolean => UPLOAD_KEY.test(key);
