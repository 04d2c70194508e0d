import { randomBytes } from 'node:crypto';

/**
 * Prefixed, time-sortable identifiers (`key_01jd…`): 48 bits of milliseconds and 80 random bits
 * in lowercase Crockford base32, as ULIDs are. Within one millisecond the random part counts up,
 * so ids made by one process sort in creation order; list pagination relies on that.
 */
export const ID_PREFIXES = [
  'usr',
  'ses',
  'ws',
  'mbr',
  'prj',
  'key',
  'form',
  'sub',
  'evt',
  'evf',
  'eml',
  'idem',
  'dvl',
  'wh',
  'whd',
  'msg',
  'pwr',
  'inv',
  'file',
  'chl',
  'rcv',
  'pkey',
  'drf',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const BODY = '[0-9a-hjkmnp-tv-z]{26}';
const shapes = new Map<string, RegExp>(ID_PREFIXES.map((p) => [p, new RegExp(`^${p}_${BODY}$`)]));

let lastTime = -1;
const lastRandom = new Uint8Array(10);
/** Random bytes are fetched this many at a time: one call to the system's generator costs more than making an id. */
const POOL_BYTES = 16 * 1024;
let pool = Buffer.alloc(0);
let taken = 0;

/** `n` fresh random bytes, cut from a pool (ids here, request ids in the server): a view, to read at once. */
export function randomBytesFromPool(n: number): Buffer {
  if (taken + n > pool.length) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  taken += n;
  return pool.subarray(taken - n, taken);
}

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  // 80 bits → 16 base32 characters, most significant first.
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}

function incrementRandom(): void {
  for (let i = lastRandom.length - 1; i >= 0; i--) {
    if (lastRandom[i]! < 255) {
      lastRandom[i]!++;
      return;
    }
    lastRandom[i] = 0;
  }
}

export function newId(prefix: IdPrefix): string {
  const now = Date.now();
  if (now > lastTime) {
    lastTime = now;
    lastRandom.set(randomBytesFromPool(10));
  } else {
    incrementRandom();
  }
  return `${prefix}_${encodeTime(lastTime)}${encodeRandom(lastRandom)}`;
}

/** True when `value` has the shape of an id with this prefix; anything else is simply not found. */
export function isId(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && shapes.get(prefix)!.test(value);
}
