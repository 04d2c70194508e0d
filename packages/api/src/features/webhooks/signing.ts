import { createPrivateKey, createPublicKey, randomBytes, sign } from 'node:crypto';
import { signsRequests, type WebhookKind, type WebhookSigningScheme } from '@lfk/vocabulary';
import { Webhook } from 'standardwebhooks';
import type { SecretBox } from '../../credentials/secret-box.ts';
import { type EndpointSecrets, signingSecrets } from './secrets.ts';

const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** An Ed25519 signing key as Standard Webhooks names it: `whsk_` and its 32-byte seed in base64. Never leaves lfk. */
const SIGNING_KEY_PREFIX = 'whsk_';
/** Its public key: `whpk_` and the 32 raw bytes in base64, what a receiver verifies `v1a` signatures with. */
const PUBLIC_KEY_PREFIX = 'whpk_';

/** A new signing secret, as Standard Webhooks writes one: `whsec_` and 32 random bytes in base64. */
function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** What an endpoint signs with, sealed and stored (`whsec_…` or `whsk_…`), and the public key a receiver needs, if any. */
export interface SigningKey {
  secret: string;
  publicKey: string | null;
}

/** A new key for the scheme: a shared secret, or an Ed25519 key pair. */
export function generateSigningKey(scheme: WebhookSigningScheme): SigningKey {
  if (scheme === 'hmac-sha256') return { secret: generateWebhookSecret(), publicKey: null };
  const seed = randomBytes(32);
  return { secret: SIGNING_KEY_PREFIX + seed.toString('base64'), publicKey: publicKeyOf(seed) };
}

/** PKCS #8's fixed DER prefix for an Ed25519 private key (RFC 8410), before its 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

const privateKeyOf = (seed: Buffer) => createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });

function publicKeyOf(seed: Buffer): string {
  const jwk = createPublicKey(privateKeyOf(seed)).export({ format: 'jwk' });
  return PUBLIC_KEY_PREFIX + Buffer.from(jwk.x!, 'base64url').toString('base64');
}

/** One signature of the content Standard Webhooks signs, by the secret's scheme: `v1,…` or `v1a,…`. */
function signatureOf(secret: string, eventId: string, at: Date, body: string): string {
  if (!secret.startsWith(SIGNING_KEY_PREFIX)) return new Webhook(secret).sign(eventId, at, body);
  const seed = Buffer.from(secret.slice(SIGNING_KEY_PREFIX.length), 'base64');
  const content = Buffer.from(`${eventId}.${Math.floor(at.getTime() / 1000)}.${body}`, 'utf8');
  return `v1a,${sign(null, content, privateKeyOf(seed)).toString('base64')}`;
}

/** The headers that sign one attempt of an event. */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Standard Webhooks headers for `body`, signed with each of `secrets` (HMAC-SHA256 by the
 * `standardwebhooks` package for a `whsec_…`, Ed25519 for a `whsk_…`): the signatures are
 * space-separated, so a receiver holding any one secret or public key verifies it (during a
 * rotation, each live one signs). `at` is the attempt's time, so a retry is never too old.
 */
function signatureHeaders(secrets: string[], eventId: string, at: Date, body: string): SignatureHeaders {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => signatureOf(secret, eventId, at, body)).join(' '),
  };
}

/**
 * The headers a request to `endpoint` carries: Standard Webhooks' signed ones, by every secret
 * live at `at`; none for a Slack or Discord endpoint, which checks no signature. Throws when a
 * secret does not open (sealed under another `LFK_SECRET_KEY`).
 */
export function requestHeaders(
  box: SecretBox,
  endpoint: EndpointSecrets & { kind: WebhookKind },
  eventId: string,
  at: Date,
  body: string,
): Partial<SignatureHeaders> {
  return signsRequests(endpoint.kind) ? signatureHeaders(signingSecrets(box, endpoint, at), eventId, at, body) : {};
}
