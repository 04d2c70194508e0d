import {
  PAGE_LIMIT,
  SUBMISSION_SOURCES,
  TEXT_LIMITS,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_FAILING_DISABLE_DAYS,
  WEBHOOK_KINDS,
  WEBHOOK_RECOVER_MAX_DAYS,
  WEBHOOK_RECOVER_MAX_EVENTS,
  WEBHOOK_SIGNING_SCHEMES,
} from '@lfk/vocabulary';
import { z } from 'zod';
import { idParam, listInput, queryInteger, storedSubmissionValues, text, timeInput, timestamp } from '../../common-schemas.ts';
import { linkedFile } from '../files/schemas.ts';
import { httpUrl } from '../forms/schemas.ts';

export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });

const events = z
  .array(webhookEventType)
  .min(1, 'Subscribe to at least one event.')
  .max(10)
  .transform((types) => [...new Set(types)]);

const description = text(TEXT_LIMITS.webhookDescription).nullable();

const url = httpUrl.describe(
  'Where events are POSTed: an https:// URL, not a private address nor localhost (unless the server sets LFK_WEBHOOK_ALLOW_PRIVATE). ' +
    'A name is resolved when sending, not here: one with no public address fails its deliveries, logged.',
);

export const webhookSigningScheme = z.enum(WEBHOOK_SIGNING_SCHEMES).meta({
  id: 'WebhookSigningScheme',
  description:
    '`hmac-sha256`: a secret shared with the receiver (`whsec_…`), signatures `v1,…`. `ed25519`: a private key that never leaves lfk; ' +
    'the receiver verifies `v1a,…` signatures with the public key (`whpk_…`), and holds nothing that could sign. Chosen when the endpoint is made.',
});

export const webhookKind = z.enum(WEBHOOK_KINDS).meta({
  id: 'WebhookKind',
  description:
    '`webhook` (the default): each event as signed JSON. `slack` or `discord`: the URL is an incoming webhook of theirs (or of a ' +
    'service that takes their format, such as Mattermost), and each event arrives as a readable message: the form, the values, a link ' +
    'to the submission. Same queue, retries and log. Chosen when the endpoint is made.',
});

export const webhookCreateInput = z.strictObject({
  form_id: idParam,
  url,
  kind: webhookKind.default('webhook'),
  description: description.optional(),
  events: events.default(['submission.created']),
  signing: webhookSigningScheme.default('hmac-sha256').describe('How a `webhook` endpoint signs; Slack and Discord endpoints are not signed, and ignore it.'),
});
export type WebhookCreateInput = z.infer<typeof webhookCreateInput>;

export const webhookIdInput = z.object({ form_id: idParam, webhook_id: idParam });

export const webhookUpdateInput = z.strictObject({
  form_id: idParam,
  webhook_id: idParam,
  url: url.optional(),
  description: description.optional(),
  events: events.optional(),
  enabled: z
    .boolean()
    .optional()
    .describe(
      'false: new events are not sent to it while it is disabled, and deliveries already queued wait; ' +
        'true sends what waited (not what a URL change held).',
    ),
});
export type WebhookUpdateInput = z.infer<typeof webhookUpdateInput>;

/** A submission as `submission.created` and `submission.released` carry it. */
const submissionEventData = z.object({
  form: z.object({ id: z.string(), name: z.string() }),
  submission: z.object({
    id: z.string(),
    form_id: z.string(),
    created_at: timestamp,
    via: z.enum(SUBMISSION_SOURCES).describe('From a browser on an allowed origin, or from a server with a key.'),
    values: storedSubmissionValues,
    files: z
      .array(linkedFile)
      .optional()
      .describe(
        "Its files, each with a signed download link (a file field's value in `values` lists their ids); absent from events queued before lfk took files.",
      ),
  }),
});

/** What a `submission.created` event carries: the body lfk signs and POSTs (`events.ts` writes it). */
export const submissionCreatedEvent = z
  .object({
    type: z.literal('submission.created'),
    timestamp: timestamp.describe('When the submission was made.'),
    data: submissionEventData,
  })
  .meta({
    id: 'SubmissionCreatedEvent',
    description:
      'The body of a `submission.created` webhook request: a real submission arrived (or, caught as spam, was released by a member before it was ever sent).',
  });

/** What a `submission.released` event carries: a member released the submission from spam. */
export const submissionReleasedEvent = z
  .object({
    type: z.literal('submission.released'),
    timestamp: timestamp.describe('When it was released.'),
    data: submissionEventData,
  })
  .meta({ id: 'SubmissionReleasedEvent', description: 'The body of a `submission.released` webhook request: a member marked a submission as not spam.' });

/** What a `submission.deleted` event carries: which submission, never its values. */
export const submissionDeletedEvent = z
  .object({
    type: z.literal('submission.deleted'),
    timestamp: timestamp.describe('When it was deleted.'),
    data: z.object({
      form: z.object({ id: z.string(), name: z.string() }),
      submission: z.object({ id: z.string(), form_id: z.string(), created_at: timestamp }),
    }),
  })
  .meta({
    id: 'SubmissionDeletedEvent',
    description:
      'The body of a `submission.deleted` webhook request: a member deleted a real submission (one by one, a selection, or all before a time). ' +
      "Not sent for what the form's retention or the deletion of the form removes, nor for spam.",
  });

/** What `form.closed` and `form.reopened` carry: a person closed the form to submissions, or opened it again. */
export const formStateEvent = z
  .object({
    type: z.enum(['form.closed', 'form.reopened']),
    timestamp: timestamp.describe('When it was closed or reopened.'),
    data: z.object({
      form: z.object({
        id: z.string(),
        name: z.string(),
        closed_message: z.string().nullable().optional().describe('On `form.closed`: what a visitor is told (null: the default words).'),
      }),
    }),
  })
  .meta({ id: 'FormStateEvent', description: 'The body of a `form.closed` or `form.reopened` webhook request.' });

/** What a `webhook.test` event carries (`POST …/webhooks/{webhook_id}/test`). */
export const webhookTestEvent = z
  .object({
    type: z.literal('webhook.test'),
    timestamp: timestamp.describe('When the test was sent.'),
    data: z.object({ form: z.object({ id: z.string(), name: z.string() }), webhook: z.object({ id: z.string() }) }),
  })
  .meta({ id: 'WebhookTestEvent', description: 'The body of a `webhook.test` request: no submission in it.' });

export const webhookDeliveryStatus = z.enum(WEBHOOK_DELIVERY_STATUSES).meta({
  id: 'WebhookDeliveryStatus',
  description:
    '`pending`: waiting for its next attempt (or for its endpoint to be enabled); `succeeded`; `failed`: out of attempts; ' +
    "`held`: queued for a URL the endpoint has moved from, sent only if a member retries it (to the endpoint's URL now); " +
    '`discarded`: a member chose not to send it.',
});

export const liveWebhookSecret = z
  .object({
    number: z.number().int().describe('1 for the first secret, one more at each rotation: the name `DELETE …/secrets/{secret_number}` takes.'),
    created_at: timestamp.nullable().describe('When it was made; null for one rotated away before lfk kept that.'),
    expires_at: timestamp.nullable().describe('When it stops signing; null for the current secret.'),
    public_key: z.string().nullable().describe("An Ed25519 key's public key (`whpk_…`): receivers verify its signatures with it. Null for a shared secret."),
  })
  .meta({ id: 'LiveWebhookSecret' });

export const webhookSecretNumberInput = z.object({
  form_id: idParam,
  webhook_id: idParam,
  secret_number: queryInteger(1, 2 ** 31 - 1),
});

export const webhook = z
  .object({
    id: z.string(),
    form_id: z.string(),
    url: z.string(),
    kind: webhookKind,
    description: z.string().nullable(),
    events: z.array(webhookEventType),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(WEBHOOK_DISABLED_REASONS)
      .nullable()
      .describe(`Why it is disabled: \`manual\` (a person), \`gone\` (it answered 410), \`failing\` (${WEBHOOK_FAILING_DISABLE_DAYS} days of failures).`),
    disabled_at: timestamp.nullable().describe('Since when it is disabled: recovering from then (`POST …/recover`) sends what it missed. Null while enabled.'),
    missed: z
      .array(z.object({ since: timestamp, until: timestamp }))
      .describe(
        'The times it was disabled whose events were not sent since, oldest first (within the 30 days a recover reaches): send ' +
          'each with `POST …/recover` `{ since, until }`. Kept once it is enabled again, until a recover sends them; empty when none wait.',
      ),
    last_delivery_at: timestamp.nullable().describe('The last attempt of its latest attempted delivery.'),
    last_status: webhookDeliveryStatus.nullable().describe('How its latest attempted delivery stands.'),
    signing: webhookSigningScheme
      .nullable()
      .describe('How its requests are signed; null for a `slack` or `discord` endpoint, whose messages are not (they check no signature).'),
    public_key: z
      .string()
      .nullable()
      .describe('With `ed25519` signing, the public key (`whpk_…`) receivers verify with: not a secret. Null with `hmac-sha256`, and unsigned.'),
    secrets: z
      .array(liveWebhookSecret)
      .describe('The secrets that sign now, never their values: the current one first, then those rotated away, newest first. None for an unsigned endpoint.'),
    previous_secret_expires_at: timestamp
      .nullable()
      .describe('After a rotation, until when the secret it replaced still signs beside the new one (see `secrets` for all of them).'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Webhook', description: 'A webhook endpoint of a form. Its signing secret is never in a list.' });

export const createdWebhook = webhook
  .extend({
    secret: z
      .string()
      .nullable()
      .describe(
        'The signing secret (`whsec_…`), in this answer only; null when an Idempotency-Key replays it, and with `ed25519` signing ' +
          '(no secret is shared: receivers use `public_key`), and for a `slack` or `discord` endpoint (not signed).',
      ),
  })
  .meta({ id: 'CreatedWebhook' });

export const webhookSecret = z.object({ secret: z.string().describe('The signing secret, `whsec_…`.') }).meta({ id: 'WebhookSecret' });

export const rotatedWebhookSecret = z
  .object({
    secret: z.string().nullable().describe('The new signing secret, `whsec_…`, in this answer only; null with `ed25519` signing.'),
    public_key: z.string().nullable().describe('With `ed25519` signing, the new public key (`whpk_…`); null with `hmac-sha256`.'),
    number: z.number().int().describe("The new secret's number."),
    previous_secret_expires_at: timestamp
      .nullable()
      .describe('Until then the previous secret signs too; null when it could not (it was sealed under another LFK_SECRET_KEY).'),
  })
  .meta({ id: 'RotatedWebhookSecret' });

const attemptFields = {
  status_code: z.number().int().nullable().describe("The receiver's HTTP status; null when it never answered."),
  error: z
    .string()
    .nullable()
    .describe(
      "Why no answer came: a timeout, a reset connection, a bad certificate, or `not sent: no public address found for the URL's host` " +
        '(one answer for a name that does not exist, does not resolve in time, or resolves only to private addresses).',
    ),
  duration_ms: z.number().int(),
  response_excerpt: z.string().nullable().describe("The first KiB of the answer's body."),
};

export const webhookTestResult = z.object({ status: z.enum(['succeeded', 'failed']), ...attemptFields }).meta({ id: 'WebhookTestResult' });

export const webhookAttempt = z
  .object({
    at: timestamp,
    ...attemptFields,
    requested: z.boolean().describe('A member asked for this attempt (retry): it did not move the automatic schedule.'),
  })
  .meta({ id: 'WebhookAttempt' });

export const webhookDelivery = z
  .object({
    id: z.string(),
    event_id: z.string().describe('The `webhook-id` header: the same on every attempt.'),
    type: z.string(),
    url: z.string().describe("Where it is sent: the endpoint's URL when it was queued, or when a member last retried it."),
    status: webhookDeliveryStatus,
    attempts: z.array(webhookAttempt),
    next_attempt_at: timestamp
      .nullable()
      .describe(
        'Null once settled, while held, or while its endpoint is disabled. A retry a member asks for does not move it; ' +
          "a receiver's `Retry-After` on 429 or 503 puts it off, by an hour at most.",
      ),
    payload: z
      .union([submissionCreatedEvent, submissionReleasedEvent, submissionDeletedEvent, formStateEvent, webhookTestEvent])
      .describe('The event as sent (to a Slack or Discord endpoint, the event its message was written from).'),
    test: z.boolean().describe('A test event (`POST …/test`): logged with its one attempt, never retried by the schedule.'),
    created_at: timestamp,
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookDeliveryListInput = listInput.extend({ form_id: idParam, webhook_id: idParam });
export const webhookDeliveryIdInput = z.object({ form_id: idParam, webhook_id: idParam, delivery_id: idParam });

/** The longest a long poll of the events feed is held: well inside every client's and proxy's timeout. */
export const EVENTS_MAX_WAIT_SECONDS = 20;

export const formEventsInput = z.object({
  form_id: idParam,
  after: z.string().max(100).optional().describe('A `cursor` this feed gave: the events after it. Without it, none: just the cursor of now, to read from.'),
  limit: queryInteger(1, PAGE_LIMIT.max).default(PAGE_LIMIT.max).describe(`How many events at most: 1 to ${PAGE_LIMIT.max}.`),
  wait: queryInteger(0, EVENTS_MAX_WAIT_SECONDS)
    .default(0)
    .describe(`Seconds (0 to ${EVENTS_MAX_WAIT_SECONDS}) to hold an empty page open until an event arrives: a long poll.`),
});

export const formEvent = z
  .object({
    id: z.string().describe('The event id, as the `webhook-id` header carries it.'),
    type: webhookEventType,
    created_at: timestamp,
    payload: submissionCreatedEvent.describe('The event exactly as a webhook endpoint receives it.'),
  })
  .meta({ id: 'FormEvent' });

export const formEventPage = z
  .object({
    data: z.array(formEvent),
    cursor: z
      .string()
      .nullable()
      .describe(
        'Pass as `after` to read on from here. Events are read in the order they committed, so one that commits late, or a submission ' +
          'released from spam, is never behind it.',
      ),
    has_more: z.boolean().describe('More events follow this page already: read on from `cursor` now. A page ends at `limit` events or about 1 MiB of them.'),
  })
  .meta({ id: 'FormEventPage' });

export const webhookRecoverInput = z.strictObject({
  form_id: idParam,
  webhook_id: idParam,
  since: timeInput.describe(`Send the events made from this time on; at most ${WEBHOOK_RECOVER_MAX_DAYS} days back.`),
  until: timeInput.optional().describe('And before this time; now when absent.'),
  dry_run: z.boolean().default(false).describe('Count what would be queued, and queue nothing (the dashboard asks first).'),
});

export const webhookRecovered = z
  .object({
    queued: z
      .number()
      .int()
      .describe(
        'Deliveries queued, one per event, each with its original `webhook-id` (so a receiver drops what it has already); ' +
          'on a dry run, how many would be.',
      ),
    already_waiting: z.number().int().describe('Events of the range already waiting to be sent to this endpoint: not queued twice.'),
    next_since: timestamp
      .nullable()
      .describe(`The range holds more than ${WEBHOOK_RECOVER_MAX_EVENTS} events: recover again from here for the rest. Null when it was all.`),
    dry_run: z.boolean(),
  })
  .meta({ id: 'WebhookRecovered' });
