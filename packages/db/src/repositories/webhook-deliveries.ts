import { type Backlog, BaseRepository, type Bounded, type ReadBounds } from './base-repository.ts';
import type { WebhookDeliveryStatus } from '../constants.ts';
import type { IWebhookDelivery, WebhookAttempt } from '../entities/webhook-delivery.ts';
import { newId } from '../ids.ts';

/** An event for some endpoints, queued with the change that caused it. */
export interface NewDeliveries {
  endpointIds: string[];
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
  eventId: string;
  payload: string;
  attemptCount: number;
}

interface ClaimedRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  payload: string;
  attempt_count: number;
}

export class WebhookDeliveryRepository extends BaseRepository<IWebhookDelivery> {
  /** Writes one delivery per endpoint at once, due now, in this repository's EntityManager's transaction. */
  async writeNow(deliveries: NewDeliveries, now = new Date()): Promise<void> {
    if (deliveries.endpointIds.length === 0) return;
    const values: unknown[] = [];
    for (const endpointId of deliveries.endpointIds) {
      values.push(newId('whd'), endpointId, deliveries.submissionId, deliveries.eventId, deliveries.type, deliveries.payload, now, now);
    }
    await this.em.execute(
      'insert into webhook_deliveries (id, endpoint_id, submission_id, event_id, type, payload, status, attempts, attempt_count, next_attempt_at, created_at) values ' +
        deliveries.endpointIds.map(() => "(?, ?, ?, ?, ?, ?, 'pending', '[]', 0, ?, ?)").join(', '),
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
       returning id, endpoint_id, event_id, payload, attempt_count`,
      [now, lockedUntil, now, now, perEndpoint, limit * 2, perEndpoint, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      lockedUntil,
      endpointId: row.endpoint_id,
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
   * True when the lock was still held: only then may the outcome count for the endpoint.
   */
  async recordAttempt(id: string, lease: Date, attempt: WebhookAttempt, status: WebhookDeliveryStatus, nextAttemptAt: Date | null): Promise<boolean> {
    const rows = await this.em.execute<{ held: boolean }[]>(
      `with claim as (select locked_until = ? as held from webhook_deliveries where id = ? for update)
       update webhook_deliveries set attempts = attempts || ?::jsonb,
         status = case when (select held from claim) then ? else status end,
         -- An endpoint disabled while the attempt ran keeps what waits for it paused.
         next_attempt_at = case when (select held from claim)
           then (case when exists (select 1 from webhook_endpoints e where e.id = endpoint_id and e.enabled) then ?::timestamptz end)
           else next_attempt_at end,
         locked_until = case when (select held from claim) then null else locked_until end
       where id = ?
       returning (select held from claim) as held`,
      [lease, id, JSON.stringify([attempt]), status, nextAttemptAt, id],
    );
    return rows[0]?.held === true;
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
   * Due again now, with the same event id: a failed delivery is pending again, a pending one is
   * brought forward. A delivery being attempted right now is left to that attempt (false). The
   * caller checks that the endpoint is enabled.
   */
  async retryNow(id: string, now: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      `update webhook_deliveries set status = 'pending', next_attempt_at = ?
       where id = ? and (locked_until is null or locked_until <= ?) returning id`,
      [now, id, now],
    );
    return rows.length > 0;
  }

  findOfEndpoint(endpointId: string, deliveryId: string): Promise<IWebhookDelivery | null> {
    return this.findOne({ id: deliveryId, endpoint: endpointId });
  }

  /** An endpoint's deliveries, newest first, below `before`: a page of its log, bounded by their payloads' and attempts' size. */
  newestOfEndpoint(endpointId: string, before: string | undefined, bounds: ReadBounds): Promise<Bounded<IWebhookDelivery>> {
    return this.newestFirstWithin('endpoint_id', endpointId, before, bounds, 'octet_length(payload) + octet_length(attempts::text)');
  }
}
