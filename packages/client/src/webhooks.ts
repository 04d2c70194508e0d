import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { RouterOutputs } from './router.ts';

export { WebhookVerificationError };

/** A `submission.created` event: the API's own schema, as the delivery log and `lfk listen`'s feed answer it. */
type SubmissionCreated = RouterOutputs['webhooks']['events']['data'][number]['payload'];

/** A submission as a `submission.created` event carries it. */
export type LfkWebhookSubmission = SubmissionCreated['data']['submission'];

/** What lfk POSTs to a webhook endpoint. */
export type LfkWebhookEvent =
  | SubmissionCreated
  | {
      /** A person closed the form to submissions, or opened it again (for endpoints subscribed to them). */
      type: 'form.closed' | 'form.reopened';
      timestamp: string;
      data: { form: { id: string; name: string; closed_message?: string | null } };
    }
  | {
      /** Sent by "send a test event" (`lfk webhooks test`), never on its own. */
      type: 'webhook.test';
      timestamp: string;
      data: { form: { id: string; name: string }; webhook: { id: string } };
    };

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
