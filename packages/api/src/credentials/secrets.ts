import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 from the CSPRNG: bytes ≥ 248 are dropped so no character is favoured. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function base62(value: number, width: number): string {
  let out = '';
  for (let v = value; v > 0; v = Math.floor(v / 62)) out = BASE62[v % 62] + out;
  return out.padStart(width, '0');
}

/**
 * Secrets are stored as their sha256; the plaintext never reaches the database. One-shot
 * `crypto.hash`, not a `createHash` stream: every request with a key or a session hashes it, and the
 * stream object cost a refused key a third of its CPU, most of it in garbage collection.
 */
export function sha256(value: string): string {
  return hash('sha256', value, 'hex');
}

export function checksumOf(body: string): string {
  return base62(crc32(body), 6);
}
