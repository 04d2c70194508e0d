import type { ClaimedEmail } from '@lfk/db';
import { type LinkEmailKind, linkTokenIn } from '@lfk/testing';
import { expect } from 'vitest';
import type { Services } from '../../src/context.ts';
import { bodyToSend } from '../../src/infrastructure/outbox.ts';
import { sql } from './database.ts';

export interface QueuedEmail {
  kind: string;
  subject: string;
  /** The body as the sender sends it: a link's token put back in place. */
  text: string;
}

/**
 * The emails (of `kind`) queued for `to`, oldest first, read from the outbox as the sender reads
 * them. No sender runs here, so every email written stays there to be read.
 */
export async function emailsTo(services: Services, to: string, kind?: string): Promise<QueuedEmail[]> {
  const rows = await sql<ClaimedEmail>(
    services,
    `select id, kind, "to", subject, body, secret_sealed as "secretSealed", attempts from outbox_emails where "to" = ` +
      `?${kind ? ' and kind = ?' : ''} order by id`,
    kind ? [to, kind] : [to],
  );
  return rows.map((row) => ({ kind: row.kind, subject: row.subject, text: bodyToSend(row, services.secretBox) }));
}

/** The token of the newest link of `kind` emailed to `to`, which has had `count` such emails. */
export async function linkTokenTo(services: Services, to: string, kind: LinkEmailKind, count = 1): Promise<string> {
  const sent = await emailsTo(services, to, kind);
  expect(sent, `${kind} emails to ${to}`).toHaveLength(count);
  return linkTokenIn(kind, sent[sent.length - 1]!.text);
}
