import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The format of what `seal` writes; a later key or algorithm gets a new one. */
const VERSION = 'v1';

/**
 * `LFK_SECRET_KEY` as given: 32 bytes written as 64 hex digits or as base64 (either alphabet).
 * Null for anything else.
 */
export function parseSecretKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === KEY_BYTES ? key : null;
  }
  return null;
}

/** A new key, written as `parseSecretKey` reads it back. */
export function newSecretKey(): string {
  return randomBytes(KEY_BYTES).toString('hex');
}

/**
 * Secrets lfk must use again (a webhook's signing secret) are stored sealed: AES-256-GCM under
 * the server's `LFK_SECRET_KEY`, a fresh IV each time, and bound to where they are stored
 * (`context`, such as the endpoint's id) so a sealed value copied to another row does not open.
 */
export class SecretBox {
  readonly #key: Buffer;
  /** A key of its own for `mac`, derived from the secret key: one key is never used for two algorithms. */
  readonly #macKey: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`A secret key is ${KEY_BYTES} bytes.`);
    this.#key = Buffer.from(key);
    this.#macKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'lfk mac', KEY_BYTES));
  }

  /**
   * An HMAC-SHA256 of `text` for `context` (base64url): proof that lfk wrote `text` there, for
   * what must travel in the clear, such as a link a person is sent.
   */
  mac(text: string, context: string): string {
    return createHmac('sha256', this.#macKey).update(context).update('\u0000').update(text).digest('base64url');
  }

  /** Whether `mac` is `text`'s for `context`, compared in constant time. */
  verifyMac(text: string, context: string, mac: string): boolean {
    const expected = Buffer.from(this.mac(text, context));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join('.');
  }

  /** The plaintext; throws when the value was sealed under another key or for another place. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
      throw new Error('Not a sealed secret of this version.');
    }
    const decipher = createDecipheriv(ALGORITHM, this.#key, Buffer.from(iv, 'base64'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    const ciphertext = Buffer.from(body, 'base64');
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }
}
