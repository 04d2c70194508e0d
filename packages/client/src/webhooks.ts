import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { RouterOutputs } from './router.ts';

export { WebhookVerificationError };

/**
 * What lfk POSTs to a webhook endpoint: `submission.created`, `submission.released`,
 * `submission.deleted`, `form.closed`, `form.reopened` (each for the endpoints subscribed to it) and
 * `webhook.test`. The API's own schema, as the delivery log answers it.
 */
export type LfkWebhookEvent = RouterOutputs['webhooks']['deliveries']['data'][number]['payload'];

/** A submission as a `submission.created` event carries it. */
export type LfkWebhookSubmission = Extract<LfkWebhookEvent, { type: 'submission.created' }>['data']['submission'];

/** Request headers as Node (`req.headers`), the Fetch API (`request.headers`) or a plain object has them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function headerOf(headers: WebhookHeaders, name: string): string {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? '';
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : (value ?? '');
}

/** A receiver refuses a timestamp further than this from its clock, as Standard Webhooks' libraries do. */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * Checks `v1a` (Ed25519) signatures against a public key (`whpk_…`): the timestamp within 5
 * minutes, and one of the signatures made by the key over `webhook-id.webhook-timestamp.body`.
 */
function verifyEd25519(publicKey: string, signed: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>, body: string): void {
  const timestamp = Number(signed['webhook-timestamp']);
  if (!signed['webhook-id'] || !/^\d+$/.test(signed['webhook-timestamp'])) throw new WebhookVerificationError('Missing required headers');
  if (Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS) throw new WebhookVerificationError('Message timestamp too old or too new');
  let key: KeyObject;
  try {
    key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey.slice('whpk_'.length), 'base64').toString('base64url') },
      format: 'jwk',
    });
  } catch {
    throw new WebhookVerificationError('Not an Ed25519 public key (whpk_…)');
  }
  const content = Buffer.from(`${signed['webhook-id']}.${signed['webhook-timestamp']}.${body}`, 'utf8');
  const matches = signed['webhook-signature'].split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    return version === 'v1a' && signature !== undefined && verify(null, content, key, Buffer.from(signature, 'base64'));
  });
  if (!matches) throw new WebhookVerificationError('No matching signature found');
}

/**
 * Checks that a webhook request came from lfk, and answers its event: the Standard Webhooks
 * signature (`webhook-signature`) over `webhook-id`, `webhook-timestamp` and the body, and a
 * timestamp within 5 minutes. `key` is the endpoint's secret (`whsec_…`, HMAC-SHA256 `v1`
 * signatures) or, for an endpoint that signs with Ed25519, its public key (`whpk_…`, `v1a`
 * signatures). During a rotation lfk signs with every live secret or key, so any one verifies.
 * Throws `WebhookVerificationError` for anything else. Pass the body exactly as received (the raw
 * bytes or text, not re-serialised JSON), and deduplicate on `webhook-id`: a delivery can arrive
 * more than once.
 */
export function verifyWebhook(key: string, headers: WebhookHeaders, rawBody: string | Buffer | Uint8Array): LfkWebhookEvent {
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const signed = {
    'webhook-id': headerOf(headers, 'webhook-id'),
    'webhook-timestamp': headerOf(headers, 'webhook-timestamp'),
    'webhook-signature': headerOf(headers, 'webhook-signature'),
  };
  if (!key.startsWith('whpk_')) return new Webhook(key).verify(body, signed) as LfkWebhookEvent;
  verifyEd25519(key, signed, body);
  try {
    return JSON.parse(body) as LfkWebhookEvent;
  } catch {
    throw new WebhookVerificationError('The body is not JSON');
  }
}
