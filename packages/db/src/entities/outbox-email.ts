import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '@lfk/vocabulary';

/** An email waits, was sent, or ran out of attempts: the database's own states, shown by no client. */
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
import { OutboxEmailRepository } from '../repositories/outbox-emails.ts';
import { BaseEntity } from './base.ts';
import { Submission } from './submission.ts';

/**
 * The durable outbox: an email is a row written in the same transaction as the change that
 * causes it, and a sender delivers it later, retrying with backoff. `lockedUntil` lets one sender
 * (of several replicas) hold a row while it sends; a sender that dies lets the lock lapse.
 * Once sent, the body is cleared. A link's secret (a verification, reset or invitation token) is
 * never in the body: it waits sealed in `secretSealed`, and the sender puts it back to send.
 */
export const OutboxEmail = defineEntity({
  name: 'OutboxEmail',
  tableName: 'outbox_emails',
  extends: BaseEntity,
  repository: () => OutboxEmailRepository,
  properties: {
    kind: p.string().length(32),
    to: p.string().length(TEXT_LIMITS.email),
    subject: p.string().length(TEXT_LIMITS.emailSubject),
    body: p.text().nullable(),
    /** Where a reply goes (a notification's submitter); null: to the sender's own address. */
    replyTo: p.string().length(TEXT_LIMITS.email).nullable(),
    /** An HTML rendering of `body`, sent beside it (an auto-reply's); cleared once sent, as the body is. */
    html: p.text().nullable(),
    /** The address's way to stop such mail (an auto-reply's `List-Unsubscribe`, one click). */
    listUnsubscribe: p.string().length(TEXT_LIMITS.url).nullable(),
    /** The token the body's link carries, sealed under `LFK_SECRET_KEY`; the body holds a mark in its place. */
    secretSealed: p.text().nullable(),
    status: p.enum(OUTBOX_STATUSES).default('pending'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime(),
    lockedUntil: p.datetime().nullable(),
    lastError: p.string().length(500).nullable(),
    sentAt: p.datetime().nullable(),
    /** The submission a notification carries: deleting it deletes its email, sent or waiting (the body holds its values). */
    submission: () => p.manyToOne(Submission).nullable().deleteRule('cascade'),
  },
  indexes: [
    { properties: ['status', 'nextAttemptAt'] },
    // Deleting a submission deletes its email: the cascade finds it by this.
    {
      name: 'outbox_emails_submission_id_index',
      expression: `create index "outbox_emails_submission_id_index" on "outbox_emails" ("submission_id") where "submission_id" is not null`,
    },
  ],
});
export type IOutboxEmail = InferEntity<typeof OutboxEmail>;
