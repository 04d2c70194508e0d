import { apiKeyDisplayPrefix } from '@lfk/vocabulary';
import { checksumOf, randomBase62, sha256 } from './secrets.ts';

/**
 * `lfk_` + 30 random base62 characters + a 6-character base62 CRC32 of those 30: 40 in all.
 * The checksum lets us reject a mistyped or made-up key before any I/O, and lets secret scanners
 * recognise ours, as GitHub's tokens do.
 */
export const API_KEY_PREFIX = 'lfk_';
const RANDOM_LENGTH = 30;
const SHAPE = /^lfk_[0-9A-Za-z]{36}$/;

export interface NewApiKey {
  key: string;
  hash: string;
  /** What lists show: `lfk_` and the first 6 random characters. */
  prefix: string;
}

export function generateApiKey(): NewApiKey {
  const random = randomBase62(RANDOM_LENGTH);
  const key = `${API_KEY_PREFIX}${random}${checksumOf(random)}`;
  return { key, hash: sha256(key), prefix: apiKeyDisplayPrefix(key) };
}

/** Format and checksum only; says nothing about whether the key exists. */
export function isWellFormedApiKey(candidate: string): boolean {
  if (!SHAPE.test(candidate)) return false;
  const random = candidate.slice(4, 4 + RANDOM_LENGTH);
  return checksumOf(random) === candidate.slice(4 + RANDOM_LENGTH);
}
