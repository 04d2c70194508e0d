import { type Backlog, BaseRepository } from './base-repository.ts';
import type { IOutboxEmail } from '../entities/outbox-email.ts';
import { newId } from '../ids.ts';
import { type ClaimedEmail, INSERT_OUTBOX_EMAIL, type NewEmail, outboxEmailRow } from './outbox-email-rows.ts';

export class OutboxEmailRepository extends BaseRepository<IOutboxEmail> {
  /**
   * Writes the message at once, due at once, in this repository's EntityManager's transaction: for
   * a change written the same way (`SubmissionRepository.writeNow`), not queued for a flush.
   */
  async writeNow(email: NewEmail, now = new Date()): Promise<void> {
    await this.em.execute(`${INSERT_OUTBOX_EMAIL} values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, outboxEmailRow(email, now));
  }

  /** The mail waiting to be sent (retries included). */
  backlog(): Promise<Backlog> {
    return this.backlogWhere("status = 'pending'");
  }

  /** Queues the message on this repository's EntityManager, due at once: it is written with the change that causes it. */
  enqueue(email: NewEmail, now = new Date()): void {
    const { submissionId, secretSealed, replyTo, html, listUnsubscribe, ...message } = email;
    this.create({
      id: newId('eml'),
      ...message,
      replyTo: replyTo ?? null,
      html: html ?? null,
      listUnsubscribe: listUnsubscribe ?? null,
      secretSealed: secretSealed ?? null,
      submission: submissionId ?? null,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      lockedUntil: null,
      lastError: null,
      sentAt: null,
    });
  }

  /**
   * Takes up to `limit` due messages, each locked until `lockedUntil` and counted as one more
   * attempt. `skip locked`, so replicas claiming at once never take the same message. Oldest
   * first: an update returns its rows in no set order, and a person who asked twice for a link
   * must find the newer one last in their inbox.
   */
  claimDue(now: Date, lockedUntil: Date, limit: number): Promise<ClaimedEmail[]> {
    return this.em.execute<ClaimedEmail[]>(
      `with claimed as (
         update outbox_emails set locked_until = ?, attempts = attempts + 1
         where id in (
           select id from outbox_emails
           where status = 'pending' and next_attempt_at <= ? and (locked_until is null or locked_until <= ?)
           order by next_attempt_at, id limit ? for update skip locked)
         returning id, kind, "to", subject, body, reply_to, html, list_unsubscribe, secret_sealed, attempts, next_attempt_at)
       select id, kind, "to", subject, body, reply_to as "replyTo", html, list_unsubscribe as "listUnsubscribe", secret_sealed as "secretSealed", attempts
       from claimed order by next_attempt_at, id`,
      [lockedUntil.toISOString(), now.toISOString(), now.toISOString(), limit],
    );
  }

  /** Sent: the body, its HTML, the stop link and the sealed token are cleared. */
  async markSent(id: string, at = new Date()): Promise<void> {
    await this.em.execute(
      "update outbox_emails set status = 'sent', sent_at = ?, body = null, html = null, list_unsubscribe = null, secret_sealed = null, " +
        'locked_until = null, last_error = null where id = ?',
      [at.toISOString(), id],
    );
  }

  /** Not sent: tried again at `nextAttemptAt`, or never again once `giveUp`. */
  async markFailed(id: string, reason: string, nextAttemptAt: Date, giveUp: boolean): Promise<void> {
    // Given up on, the body goes as a sent one's does.
    await this.em.execute(
      'update outbox_emails set status = ?, next_attempt_at = ?, locked_until = null, last_error = ?' +
        `${giveUp ? ', body = null, html = null, list_unsubscribe = null, secret_sealed = null' : ''} where id = ?`,
      [giveUp ? 'failed' : 'pending', nextAttemptAt.toISOString(), reason, id],
    );
  }
}
