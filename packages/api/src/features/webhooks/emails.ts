import type { OutgoingEmail } from '../../infrastructure/outbox.ts';
import { WEBHOOK_FAILING_DISABLE_DAYS, type WebhookDisabledReason } from '@lfk/vocabulary';

const WHY: Record<Exclude<WebhookDisabledReason, 'manual'>, string> = {
  gone: 'it answered 410 Gone, which says the receiver no longer exists',
  failing: `every delivery to it has failed for about ${WEBHOOK_FAILING_DISABLE_DAYS} days`,
};

/** An endpoint was disabled by lfk: why, and how to bring it back. */
export function endpointDisabledEmail(input: {
  to: string;
  endpointId: string;
  formId: string;
  formName: string;
  reason: Exclude<WebhookDisabledReason, 'manual'>;
  publicUrl: string;
}): OutgoingEmail {
  return {
    kind: 'webhook_disabled',
    to: input.to,
    subject: `A webhook of "${input.formName}" was disabled`,
    body: [
      `The webhook endpoint ${input.endpointId} of the form "${input.formName}" (${input.formId}) was disabled: ${WHY[input.reason]}.`,
      'Submissions are kept. Deliveries still pending wait and are sent when the endpoint is enabled again; those that ran out of',
      'attempts are in its delivery log, where each can be retried.',
      '',
      `See each attempt in the dashboard (${input.publicUrl}/) or with 'lfk webhooks deliveries ${input.endpointId} --form ${input.formId}',`,
      `then enable it with 'lfk webhooks update ${input.endpointId} --form ${input.formId} --enable'.`,
    ].join('\n'),
  };
}
