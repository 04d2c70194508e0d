import type { IWebhookEndpoint } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { planRecover, recoverReach } from './recover.ts';

// What an endpoint missed while disabled: kept when it is enabled again, for a later "Send missed
// events", and narrowed as recovers send it.

/**
 * Keeps what the endpoint missed while disabled (`[since, until)`) for a later "Send missed events",
 * beside what it missed before and has not been sent yet; only when there is any.
 */
export async function keepMissed(em: EntityManager, formId: string, endpoint: IWebhookEndpoint, since: Date, until: Date) {
  const plan = await planRecover(em, formId, endpoint, since, until);
  if (plan.events.length === 0 && plan.nextSince === null) return;
  endpoint.missedRanges = [...endpoint.missedRanges, { since: since.toISOString(), until: until.toISOString() }];
}

/**
 * A recover sent the events of `[since, until)`: each missed range it starts at or before (or at
 * the oldest a recover reaches, for one that began earlier) is narrowed to where it got, and
 * forgotten once sent whole, or once too old to send.
 */
export function sentMissed(endpoint: IWebhookEndpoint, since: Date, until: Date, now: Date) {
  const reach = recoverReach(now);
  endpoint.missedRanges = endpoint.missedRanges.flatMap((range) => {
    const start = new Date(Math.max(Date.parse(range.since), reach.getTime()));
    const end = new Date(range.until);
    if (end <= reach) return [];
    if (since > start || until <= start) return [range];
    return until >= end ? [] : [{ since: until.toISOString(), until: range.until }];
  });
}
