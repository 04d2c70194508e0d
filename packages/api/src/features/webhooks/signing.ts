import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new signing secret, as Standard Webhooks writes one: `whsec_` and 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The headers that sign one attempt of an event. */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Standard Webhooks headers for `body`, signed (by the `standardwebhooks` package) with each of
 * `secrets`: the signatures are space-separated, so a receiver holding either secret verifies it
 * (during a rotation, both sign). `at` is the attempt's time, so a retry is never too old.
 */
export function signatureHeaders(secrets: string[], eventId: string, at: Date, body: string): SignatureHeaders {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(' '),
  };
}
