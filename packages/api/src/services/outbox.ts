import { newId, OutboxEmail } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';

export interface Email {
  /** What the email is for (`verification`, `submission`); shown in logs, never its body. */
  kind: string;
  to: string;
  subject: string;
  body: string;
}

/**
 * Queues an email on `em`: it is written in the same transaction as the change that causes it,
 * so it is sent if and only if that change is kept. The sender (apps/server) delivers it.
 */
export function enqueueEmail(em: EntityManager, email: Email, now = new Date()): void {
  em.create(OutboxEmail, {
    id: newId('eml'),
    kind: email.kind,
    to: email.to,
    subject: email.subject,
    body: email.body,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    lockedUntil: null,
    lastError: null,
    sentAt: null,
  });
}
