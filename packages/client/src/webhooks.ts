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

/**
 * Checks that a webhook request came from lfk, and answers its event: the Standard Webhooks
 * signature (`webhook-signature`) over `webhook-id`, `webhook-timestamp` and the body, made with
 * the endpoint's secret (`whsec_…`), and a timestamp within 5 minutes. During a secret rotation
 * lfk signs with both secrets, so either one verifies. Throws `WebhookVerificationError` for
 * anything else. Pass the body exactly as received (the raw bytes or text, not re-serialised
 * JSON), and deduplicate on `webhook-id`: a delivery can arrive more than once.
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, rawBody: string | Buffer | Uint8Array): LfkWebhookEvent {
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const signed = {
    'webhook-id': headerOf(headers, 'webhook-id'),
    'webhook-timestamp': headerOf(headers, 'webhook-timestamp'),
    'webhook-signature': headerOf(headers, 'webhook-signature'),
  };
  return new Webhook(secret).verify(body, signed) as LfkWebhookEvent;
}
