import { type Backlog, BaseRepository } from './base-repository.ts';
import type { WebhookDeliveryStatus } from '@lfk/vocabulary';
import type { IWebhookDelivery, WebhookAttempt } from '../entities/webhook-delivery.ts';
import { newId } from '../ids.ts';

/** An event for some endpoints, queued with the change that caused it. */
export interface NewDeliveries {
  /** Each endpoint, with its URL as it stands in the queuing transaction: where its delivery goes. */
  endpoints: { id: string; url: string }[];
  eventId: string;
  type: string;
  /** The body exactly as it will be signed and sent. */
  payload: string;
  submissionId: string | null;
}

/** A delivery taken for an attempt: what the attempt needs, and which attempt this is. */
export interface ClaimedDelivery {
  id: string;
  /** The lock this claim holds: an outcome settles the delivery only while it is still held. */
  lockedUntil: Date;
  endpointId: string;
  /** Where this delivery goes: the URL it was queued for, whatever its endpoint says now. */
  url: string;
  eventId: string;
  payload: string;
  attemptCount: number;
}

interface ClaimedRow {
  id: string;
  endpoint_id: string;
  url: string;
  event_id: string;
  payload: string;
  attempt_count: number;
}

export class WebhookDeliveryRepository extends BaseRepository<IWebhookDelivery> {
  /** Writes one delivery per endpoint at once, due now, in this repository's EntityManager's transaction. */
  async writeNow(deliveries: NewDeliveries, now = new Date()): Promise<void> {
    if (deliveries.endpoints.length === 0) return;
    const values: unknown[] = [];
    for (const endpoint of deliveries.endpoints) {
      values.push(newId('whd'), endpoint.id, endpoint.url, deliveries.submissionId, deliveries.eventId, deliveries.type, deliveries.payload, now, now);
    }
    await this.em.execute(
      'insert into webhook_deliveries (id, endpoint_id, url, submission_id, event_id, type, payload, status, attempts, attempt_count, next_attempt_at, created_at) values ' +
        deliveries.endpoints.map(() => "(?, ?, ?, ?, ?, ?, ?, 'pending', '[]', 0, ?, ?)").join(', '),
      values,
    );
  }

  /**
   * Takes up to `limit` due deliveries, each locked until `lockedUntil` and counted as one more
   * attempt; at most `perEndpoint` of one endpoint in flight at once, across every replica, so a
   * slow endpoint holds a few deliveries, never the queue. `skip locked`: replicas claiming at
   * once never take the same delivery. A disabled endpoint's deliveries are not due: disabling
   * clears their next attempt in the same transaction. Ordered by the due time alone, so the index
   * gives the order and the scan stops at the limit.
   */
  /** The deliveries waiting to be attempted (retries included); not those held by a disabled endpoint. */
  backlog(): Promise<Backlog> {
    return this.backlogWhere("status = 'pending' and next_attempt_at is not null");
  }

  async claimDue(now: Date, lockedUntil: Date, limit: number, perEndpoint: number): Promise<ClaimedDelivery[]> {
    const rows = await this.em.execute<ClaimedRow[]>(
      `with in_flight as (
         select endpoint_id, count(*) as n from webhook_deliveries
         where status = 'pending' and locked_until is not null and locked_until > ?
         group by endpoint_id
       )
       update webhook_deliveries set locked_until = ?, attempt_count = attempt_count + 1
       where id in (
         select ranked.id from (
           select c.id, c.endpoint_id, row_number() over (partition by c.endpoint_id order by c.next_attempt_at, c.id) as nth
           from (
             select d.id, d.endpoint_id, d.next_attempt_at from webhook_deliveries d
             where d.status = 'pending' and d.next_attempt_at <= ? and (d.locked_until is null or d.locked_until <= ?)
               and d.endpoint_id not in (select endpoint_id from in_flight where n >= ?)
             order by d.next_attempt_at
             limit ?
             for update of d skip locked
           ) c
         ) ranked
         left join in_flight f on f.endpoint_id = ranked.endpoint_id
         where ranked.nth + coalesce(f.n, 0) <= ?
         limit ?)
       returning id, endpoint_id, url, event_id, payload, attempt_count`,
      [now, lockedUntil, now, now, perEndpoint, limit * 2, perEndpoint, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      lockedUntil,
      endpointId: row.endpoint_id,
      url: row.url,
      eventId: row.event_id,
      payload: row.payload,
      attemptCount: row.attempt_count,
    }));
  }

  /**
   * An attempt's outcome: the attempt appended to the log and, while the claim's lock (`lease`) is
   * still held, the lock released and the delivery settled (`succeeded`, `failed`) or due again at
   * `nextAttemptAt` (none while its endpoint is disabled). An attempt that outlived its lock
   * (another replica took the delivery since, or settled it) is logged and changes nothing else.
   * A delivery held while its attempt ran (the endpoint moved) stays held unless the attempt
   * succeeded. True when the outcome speaks for the endpoint as it is now: the lock was still
   * held, and the delivery was still for the endpoint's URL.
   */
  async recordAttempt(id: string, lease: Date, attempt: WebhookAttempt, status: WebhookDeliveryStatus, nextAttemptAt: Date | null): Promise<boolean> {
    const rows = await this.em.execute<{ counts: boolean }[]>(
      `with claim as (select coalesce(locked_until = ?, false) as held, status = 'held' as moved from webhook_deliveries where id = ? for update)
       update webhook_deliveries set attempts = attempts || ?::jsonb,
         status = case when not (select held from claim) then status
           when (select moved from claim) and ? <> 'succeeded' then status
           else ? end,
         -- An endpoint disabled while the attempt ran keeps what waits for it paused; a moved one, what was held.
         next_attempt_at = case when not (select held from claim) then next_attempt_at
           when (select moved from claim) then null
           when exists (select 1 from webhook_endpoints e where e.id = endpoint_id and e.enabled) then ?::timestamptz end,
         locked_until = case when (select held from claim) then null else locked_until end
       where id = ?
       returning (select held and not moved from claim) as counts`,
      [lease, id, JSON.stringify([attempt]), status, status, nextAttemptAt, id],
    );
    return rows[0]?.counts === true;
  }

  /**
   * The endpoint now points at `url`: what waits for another URL (due, retrying, or paused while
   * it is disabled) is held, so it goes nowhere until a member retries it (to `url`) or discards
   * it. In the caller's transaction, with the endpoint's row locked. Answers how many.
   */
  async holdMovedFrom(endpointId: string, url: string): Promise<number> {
    const rows = await this.em.execute<{ id: string }[]>(
      "update webhook_deliveries set status = 'held', next_attempt_at = null where endpoint_id = ? and status = 'pending' and url <> ? returning id",
      [endpointId, url],
    );
    return rows.length;
  }

  /** The endpoint was disabled: its pending deliveries wait, with no next attempt, until it is enabled. */
  async pauseOf(endpointId: string): Promise<void> {
    await this.em.execute("update webhook_deliveries set next_attempt_at = null where endpoint_id = ? and status = 'pending'", [endpointId]);
  }

  /** The endpoint was enabled: what waited for it is due now. */
  async resumeOf(endpointId: string, now: Date): Promise<number> {
    const rows = await this.em.execute<{ id: string }[]>(
      "update webhook_deliveries set next_attempt_at = ? where endpoint_id = ? and status = 'pending' and next_attempt_at is null returning id",
      [now, endpointId],
    );
    return rows.length;
  }

  /**
   * Due again now, with the same event id, to `url` (the endpoint's URL now: a member may read
   * what it carries anyway): a failed, held or discarded delivery is pending again, a pending one
   * is brought forward. A delivery being attempted right now is left to that attempt (false). The
   * caller checks that the endpoint is enabled.
   */
  async retryNow(id: string, url: string, now: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      `update webhook_deliveries set status = 'pending', url = ?, next_attempt_at = ?
       where id = ? and (locked_until is null or locked_until <= ?) returning id`,
      [url, now, id, now],
    );
    return rows.length > 0;
  }

  /**
   * Never sent from now on: a pending, held or failed delivery becomes `discarded`. One already
   * discarded, being attempted right now, or that succeeded, is left as it is: the answer says
   * which (or that it is gone, deleted with its submission meanwhile).
   */
  async discard(id: string, now: Date): Promise<'discarded' | 'already_discarded' | 'in_flight' | 'succeeded' | 'gone'> {
    const [row] = await this.em.execute<{ outcome: 'discarded' | 'already_discarded' | 'in_flight' | 'succeeded' | 'gone' }[]>(
      `with found as (select id, status, locked_until from webhook_deliveries where id = ? for update),
       changed as (
         update webhook_deliveries d set status = 'discarded', next_attempt_at = null from found
         where d.id = found.id and found.status not in ('succeeded', 'discarded') and (found.locked_until is null or found.locked_until <= ?)
         returning d.id)
       select case when exists (select 1 from changed) then 'discarded'
         when not exists (select 1 from found) then 'gone'
         when (select status from found) = 'succeeded' then 'succeeded'
         when (select status from found) = 'discarded' then 'already_discarded'
         else 'in_flight' end as outcome`,
      [id, now],
    );
    return row!.outcome;
  }

  findOfEndpoint(endpointId: string, deliveryId: string): Promise<IWebhookDelivery | null> {
    return this.findOne({ id: deliveryId, endpoint: endpointId });
  }
}
