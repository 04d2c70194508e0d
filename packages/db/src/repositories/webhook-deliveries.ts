import { type Backlog, BaseRepository, type Bounded, type ReadBounds } from './base-repository.ts';
import type { WebhookDeliveryStatus } from '@lfk/vocabulary';
import type { IWebhookDelivery, WebhookAttempt } from '../entities/webhook-delivery.ts';
import { newId } from '../ids.ts';

/** An event as its deliveries carry it. */
export interface QueuedEvent {
  eventId: string;
  type: string;
  /** The body exactly as it will be signed and sent. */
  payload: string;
  submissionId: string | null;
}

/** An event for some endpoints, queued with the change that caused it. */
export interface NewDeliveries extends QueuedEvent {
  /** Each endpoint, with its URL as it stands in the queuing transaction: where its delivery goes. */
  endpoints: { id: string; url: string }[];
}

/** Deliveries one insert writes at most (each takes 10 parameters, PostgreSQL allows 65,535). */
const DELIVERIES_PER_INSERT = 1000;

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
  /** The automatic attempts made, this one included unless a member asked for it: the schedule's position. */
  attemptCount: number;
  /** A member asked for this attempt (Retry now): it is not one of the schedule's. */
  requested: boolean;
  /** For a requested attempt, when the schedule had the delivery due before: where it resumes if this one fails. */
  resumeAt: Date | null;
}

/**
 * Due deliveries one claim looks at to set aside those of endpoints and workspaces at their cap:
 * a few milliseconds of writes per claim, so a claim after a burst stays short, and many times what
 * the fastest submissions can queue between two claims.
 */
const ASIDE_WINDOW = 128;

/** How many deliveries may be in flight at once, across every replica. */
export interface InFlightCaps {
  perEndpoint: number;
  perWorkspace: number;
}

/** A delivery taken, with what the claim saw of the queue; one row of nulls and the queue when none was. */
interface ClaimedRow {
  id: string | null;
  endpoint_id: string | null;
  url: string | null;
  event_id: string | null;
  payload: string | null;
  attempt_count: number | null;
  retry_requested: boolean | null;
  resume_at: Date | string | null;
  /** How many due deliveries the claim's scan looked at (a count: a string from PostgreSQL's driver). */
  scanned: number | string;
  /** Some endpoint or workspace is at its cap, deliveries wait set aside for one, or the caps left some of the scan. */
  capped: boolean;
}

export class WebhookDeliveryRepository extends BaseRepository<IWebhookDelivery> {
  /** Writes one delivery per endpoint at once, due now, in this repository's EntityManager's transaction. */
  writeNow(deliveries: NewDeliveries, now = new Date()): Promise<void> {
    return this.writeEvents(deliveries.endpoints, [deliveries], now);
  }

  /**
   * Writes one delivery of each event per endpoint, due now, in this repository's EntityManager's
   * transaction. `setAside`: they wait for room as if their endpoint were at its cap, out of the
   * claims' scan, so a claim takes a few of them at a time, never ahead of other endpoints' (a
   * recover's thousands).
   */
  async writeEvents(endpoints: readonly { id: string; url: string }[], events: readonly QueuedEvent[], now = new Date(), setAside = false): Promise<void> {
    const rows = endpoints.flatMap((endpoint) =>
      events.map((event) => [newId('whd'), endpoint.id, endpoint.url, event.submissionId, event.eventId, event.type, event.payload, now, now, setAside]),
    );
    for (let start = 0; start < rows.length; start += DELIVERIES_PER_INSERT) {
      const chunk = rows.slice(start, start + DELIVERIES_PER_INSERT);
      await this.em.execute(
        'insert into webhook_deliveries (id, endpoint_id, url, submission_id, event_id, type, payload, status, attempts, attempt_count, next_attempt_at, ' +
          'created_at, waiting_for_room) values ' +
          chunk.map(() => "(?, ?, ?, ?, ?, ?, ?, 'pending', '[]', 0, ?, ?, ?)").join(', '),
        chunk.flat(),
      );
    }
  }

  /** Which of these events wait to be sent to the endpoint (pending or held): a recover does not queue them twice. */
  async waitingAmong(endpointId: string, eventIds: readonly string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const rows = await this.em.execute<{ event_id: string }[]>(
      `select event_id from webhook_deliveries where status in ('pending', 'held') and endpoint_id = ? and event_id in (${eventIds.map(() => '?').join(', ')})`,
      [endpointId, ...eventIds],
    );
    return new Set(rows.map((r) => r.event_id));
  }

  /**
   * A test event already sent, as the log keeps it: settled by its one attempt (`succeeded` or
   * `failed`), never due again unless a member retries it.
   */
  async logTest(
    test: { endpointId: string; url: string; eventId: string; payload: string; attempt: WebhookAttempt; succeeded: boolean },
    now: Date,
  ): Promise<void> {
    await this.em.execute(
      'insert into webhook_deliveries (id, endpoint_id, url, submission_id, event_id, type, payload, status, attempts, attempt_count, next_attempt_at, ' +
        'created_at, test) ' +
        "values (?, ?, ?, null, ?, 'webhook.test', ?, ?, ?::jsonb, 1, null, ?, true)",
      [newId('whd'), test.endpointId, test.url, test.eventId, test.payload, test.succeeded ? 'succeeded' : 'failed', JSON.stringify([test.attempt]), now],
    );
  }

  /** The deliveries waiting to be attempted (retries included); not those held by a disabled endpoint. */
  backlog(): Promise<Backlog> {
    return this.backlogWhere("status = 'pending' and next_attempt_at is not null");
  }

  /**
   * Takes up to `limit` due deliveries, each locked until `lockedUntil` and counted as one more
   * attempt. In flight at once, across every replica: at most `caps.perEndpoint` of one endpoint and
   * `caps.perWorkspace` of one workspace (its forms' endpoints), so a slow or dead receiver holds a
   * few deliveries, and a workspace whose receivers all hang holds its share, never the queue.
   *
   * The scan looks at `limit * 2` due deliveries in due order (the due index's order, so it stops
   * there), past the endpoints already at a cap, and the claim takes turns between their
   * workspaces, and within each between its endpoints: each one's first due delivery, then each
   * one's second, and so on (a recover's thousands never go ahead of another endpoint's). What waits for an
   * endpoint or workspace at its cap is set aside (`waiting_for_room`, up to `ASIDE_WINDOW` of the oldest due
   * per claim), out of the due index, so a deep backlog behind a dead receiver is not walked by
   * every claim; a delivery set aside comes back as a candidate once its endpoint and workspace have room.
   *
   * `skip locked`: replicas claiming at once never take the same delivery (a cap may then be passed
   * by what they take at that instant). A disabled endpoint's deliveries are not due: disabling
   * clears their next attempt in the same transaction. `more`: the scan was full, so more may be
   * due than this claim could take. `capped`: some endpoint or workspace is at its cap, or
   * deliveries wait set aside, so an attempt that ends may let one through.
   */
  async claimDue(now: Date, lockedUntil: Date, limit: number, caps: InFlightCaps): Promise<{ deliveries: ClaimedDelivery[]; more: boolean; capped: boolean }> {
    const scan = limit * 2;
    const rows = await this.em.execute<ClaimedRow[]>(
      `with recursive in_flight as (
         select endpoint_id, count(*) as n from webhook_deliveries
         where status = 'pending' and locked_until is not null and locked_until > :now
         group by endpoint_id
       ), workspace_in_flight as (
         select f.workspace_id, sum(i.n) as n
         from in_flight i join webhook_endpoints e on e.id = i.endpoint_id join forms f on f.id = e.form_id
         group by f.workspace_id
       ), full_endpoints as (
         select endpoint_id as id from in_flight where n >= :perEndpoint
         union
         select e.id from workspace_in_flight w join forms f on f.workspace_id = w.workspace_id join webhook_endpoints e on e.form_id = f.id
         where w.n >= :perWorkspace
       ), aside_window as materialized (
         -- The oldest due, when some endpoint is full: those of full endpoints are set aside. Looked at
         -- once (materialized): after a burst the planner may think the table empty, and run it per row.
         select d.id, d.endpoint_id from webhook_deliveries d
         where exists (select 1 from full_endpoints)
           and d.status = 'pending' and not d.waiting_for_room and d.next_attempt_at <= :now and (d.locked_until is null or d.locked_until <= :now)
         order by d.next_attempt_at
         limit :asideWindow
       ), to_set_aside as (
         select d.id from aside_window w join webhook_deliveries d on d.id = w.id
         where w.endpoint_id in (select id from full_endpoints)
           and d.status = 'pending' and not d.waiting_for_room and (d.locked_until is null or d.locked_until <= :now)
         for update of d skip locked
       ), waiting_endpoints as (
         -- The endpoints with deliveries waiting for room, one index probe each (a loose index scan).
         (select endpoint_id from webhook_deliveries where status = 'pending' and waiting_for_room order by endpoint_id limit 1)
         union all
         select (select d.endpoint_id from webhook_deliveries d
                  where d.status = 'pending' and d.waiting_for_room and d.endpoint_id > h.endpoint_id order by d.endpoint_id limit 1)
         from waiting_endpoints h where h.endpoint_id is not null
       ), scanned as (
         select d.id, d.endpoint_id, d.next_attempt_at from webhook_deliveries d
         where d.status = 'pending' and not d.waiting_for_room and d.next_attempt_at <= :now and (d.locked_until is null or d.locked_until <= :now)
           and d.endpoint_id not in (select id from full_endpoints)
         order by d.next_attempt_at
         limit :scan
         for update of d skip locked
       ), released as (
         -- Deliveries set aside for endpoints with room again, as many as the endpoint has room for.
         select r.id, r.endpoint_id, r.next_attempt_at
         from waiting_endpoints h
         left join in_flight i on i.endpoint_id = h.endpoint_id
         cross join lateral (
           select d.id, d.endpoint_id, d.next_attempt_at from webhook_deliveries d
           where d.endpoint_id = h.endpoint_id and d.status = 'pending' and d.waiting_for_room and d.next_attempt_at <= :now
             and (d.locked_until is null or d.locked_until <= :now)
           order by d.next_attempt_at
           limit greatest(:perEndpoint - coalesce(i.n, 0), 0)
           for update of d skip locked
         ) r
         where h.endpoint_id is not null and h.endpoint_id not in (select id from full_endpoints)
       ), within_endpoint_caps as (
         select c.id, c.next_attempt_at, f.workspace_id, coalesce(w.n, 0) as workspace_n,
                row_number() over (partition by c.endpoint_id order by c.next_attempt_at, c.id) as endpoint_turn,
                row_number() over (partition by c.endpoint_id order by c.next_attempt_at, c.id) + coalesce(i.n, 0) as endpoint_load
         from (select * from scanned union all select * from released) c
         join webhook_endpoints e on e.id = c.endpoint_id
         join forms f on f.id = e.form_id
         left join in_flight i on i.endpoint_id = c.endpoint_id
         left join workspace_in_flight w on w.workspace_id = f.workspace_id
       ), taken as (
         select id from (
           select id, next_attempt_at, workspace_n,
                  row_number() over (partition by workspace_id order by endpoint_turn, next_attempt_at, id) as turn
           from within_endpoint_caps where endpoint_load <= :perEndpoint
         ) t
         where turn + workspace_n <= :perWorkspace
         order by turn, next_attempt_at
         limit :limit
       ), setting_aside as (
         update webhook_deliveries set waiting_for_room = true where id in (select id from to_set_aside)
       ), claimed as (
         update webhook_deliveries d set locked_until = :lockedUntil, waiting_for_room = false,
           attempt_count = d.attempt_count + case when d.retry_requested then 0 else 1 end
         from taken where d.id = taken.id
         returning d.id, d.endpoint_id, d.url, d.event_id, d.payload, d.attempt_count, d.retry_requested, d.resume_at
       )
       -- One row at least, with what the claim saw of the queue, and one per delivery taken.
       select c.id, c.endpoint_id, c.url, c.event_id, c.payload, c.attempt_count, c.retry_requested, c.resume_at, (select count(*) from scanned) as scanned,
              exists (select 1 from full_endpoints) or exists (select 1 from waiting_endpoints where endpoint_id is not null)
                or (select count(*) from within_endpoint_caps) > (select count(*) from taken) as capped
       from (select 1) as queue left join claimed c on true`,
      { now, lockedUntil, limit, scan, asideWindow: ASIDE_WINDOW, perEndpoint: caps.perEndpoint, perWorkspace: caps.perWorkspace },
    );
    const deliveries = rows.flatMap((row) =>
      row.id === null
        ? []
        : [
            {
              id: row.id,
              lockedUntil,
              endpointId: row.endpoint_id!,
              url: row.url!,
              eventId: row.event_id!,
              payload: row.payload!,
              attemptCount: row.attempt_count!,
              requested: row.retry_requested === true,
              resumeAt: row.resume_at === null ? null : new Date(row.resume_at),
            },
          ],
    );
    const queue = rows[0]!;
    // A full scan of which the caps let only a few through: the next claim skips the endpoints now at
    // a cap and reaches what waits behind them. Whatever the scan held, it took one at least.
    return { deliveries, more: deliveries.length === limit || Number(queue.scanned) === scan, capped: queue.capped };
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
         locked_until = case when (select held from claim) then null else locked_until end,
         retry_requested = case when (select held from claim) then false else retry_requested end,
         resume_at = case when (select held from claim) then null else resume_at end
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
   * One attempt now, with the same event id, to `url` (the endpoint's URL now: a member may read
   * what it carries anyway): a failed, held or discarded delivery is pending again, a pending one
   * is brought forward. The attempt is marked as requested, and a pending delivery keeps when the
   * schedule had it due (`resume_at`; a second request before the attempt keeps the first's), so a
   * failed requested attempt leaves the schedule as it was. A delivery being attempted right now is
   * left to that attempt (false). The caller checks that the endpoint is enabled.
   */
  async retryNow(id: string, url: string, now: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      `update webhook_deliveries set status = 'pending', url = ?, next_attempt_at = ?, retry_requested = true,
         resume_at = case when retry_requested then resume_at when status = 'pending' then next_attempt_at end
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

  /** An endpoint's deliveries, newest first, below `before`: a page of its log, bounded by their payloads' and attempts' size. */
  newestOfEndpoint(endpointId: string, before: string | undefined, bounds: ReadBounds): Promise<Bounded<IWebhookDelivery>> {
    return this.newestFirstWithin('endpoint_id', endpointId, before, bounds, 'octet_length(payload) + octet_length(attempts::text)');
  }
}
