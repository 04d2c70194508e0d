import { BaseRepository } from './base-repository.ts';
import type { WebhookDeliveryStatus, WebhookDisabledReason, WebhookKind } from '@lfk/vocabulary';
import type { IWebhookEndpoint, PreviousSecret } from '../entities/webhook-endpoint.ts';

/** What a delivery needs of its endpoint: where, with which secrets, and whose it is. */
export interface EndpointForDelivery {
  id: string;
  url: string;
  kind: WebhookKind;
  enabled: boolean;
  secretSealed: string;
  /** Secrets rotated away, newest first; each signs until its own `expires_at`. */
  previousSecrets: PreviousSecret[];
  failingSince: Date | null;
  formId: string;
  formName: string;
  workspaceId: string | null;
}

interface EndpointRow {
  id: string;
  url: string;
  kind: WebhookKind;
  enabled: boolean;
  secret_sealed: string;
  previous_secrets: PreviousSecret[] | string;
  failing_since: Date | string | null;
  form_id: string;
  form_name: string;
  workspace_id: string | null;
}

/** An endpoint deleted, with its form, for the audit log and the email that tells its owner. */
export interface RemovedEndpoint {
  id: string;
  url: string;
  formId: string;
  formName: string;
  workspaceId: string | null;
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

export class WebhookEndpointRepository extends BaseRepository<IWebhookEndpoint> {
  /** The form's endpoints, oldest first (a form has at most a handful). */
  listOfForm(formId: string): Promise<IWebhookEndpoint[]> {
    return this.find({ form: formId }, { orderBy: { id: 'asc' } });
  }

  /**
   * The enabled endpoints of a form subscribed to `type`, with their URLs: one statement, in the
   * caller's transaction. Share-locked until it ends, so an endpoint being disabled, moved or
   * deleted at that moment waits for the deliveries written for it (which the disable then pauses,
   * the move holds, the delete removes), and none is written for an endpoint that is already gone.
   */
  subscribedTo(formId: string, type: string): Promise<{ id: string; url: string }[]> {
    return this.em.execute<{ id: string; url: string }[]>(
      'select id, url from webhook_endpoints where form_id = ? and enabled and events @> ?::jsonb order by id for share',
      [formId, JSON.stringify([type])],
    );
  }

  /** The endpoints with these ids, with their form, as a delivery worker needs them. */
  async forDelivery(ids: string[]): Promise<Map<string, EndpointForDelivery>> {
    if (ids.length === 0) return new Map();
    const rows = await this.em.execute<EndpointRow[]>(
      `select e.id, e.url, e.kind, e.enabled, e.secret_sealed, e.previous_secrets, e.failing_since,
              f.id as form_id, f.name as form_name, f.workspace_id
       from webhook_endpoints e join forms f on f.id = e.form_id
       where e.id in (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    return new Map(
      rows.map((row) => [
        row.id,
        {
          id: row.id,
          url: row.url,
          kind: row.kind,
          enabled: row.enabled,
          secretSealed: row.secret_sealed,
          previousSecrets: typeof row.previous_secrets === 'string' ? (JSON.parse(row.previous_secrets) as PreviousSecret[]) : row.previous_secrets,
          failingSince: date(row.failing_since),
          formId: row.form_id,
          formName: row.form_name,
          workspaceId: row.workspace_id,
        },
      ]),
    );
  }

  /** An attempt failed: the endpoint is failing from `at` unless it already was. Answers since when. */
  async markFailing(id: string, at: Date): Promise<Date | null> {
    const [row] = await this.em.execute<{ failing_since: Date | string | null }[]>(
      'update webhook_endpoints set failing_since = coalesce(failing_since, ?) where id = ? returning failing_since',
      [at, id],
    );
    return date(row?.failing_since ?? null);
  }

  /** An attempt succeeded: the endpoint is no longer failing. */
  async clearFailing(id: string): Promise<void> {
    await this.em.execute('update webhook_endpoints set failing_since = null where id = ? and failing_since is not null', [id]);
  }

  /**
   * Each endpoint's last attempted delivery: when (its last attempt) and how it stands. Read from
   * the deliveries, newest first by index, so a busy endpoint's row is not rewritten per delivery.
   */
  async lastDeliveries(ids: string[]): Promise<Map<string, { at: Date; status: WebhookDeliveryStatus }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.em.execute<{ id: string; at: string; status: WebhookDeliveryStatus }[]>(
      `select e.id, d.at, d.status from webhook_endpoints e
       cross join lateral (
         select attempts -> -1 ->> 'at' as at, status from webhook_deliveries
         where endpoint_id = e.id and jsonb_array_length(attempts) > 0 order by id desc limit 1
       ) d
       where e.id in (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    return new Map(rows.map((row) => [row.id, { at: new Date(row.at), status: row.status }]));
  }

  /**
   * Disables an enabled endpoint for `reason`; true when this call disabled it (a concurrent
   * attempt that also fails finds it disabled already, so its owners are told once).
   */
  async disable(id: string, reason: WebhookDisabledReason, at: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      'update webhook_endpoints set enabled = false, disabled_reason = ?, disabled_at = ?, updated_at = ? where id = ? and enabled returning id',
      [reason, at, at, id],
    );
    return rows.length > 0;
  }

  /**
   * Deletes the endpoints `userId` added, signed in or with a key it made, as the audit log
   * records who added each (their deliveries go with them); answers what was deleted. A rare
   * step (an account's address confirmed by a password reset), so the log is read without an index.
   */
  async deleteAddedBy(userId: string): Promise<RemovedEndpoint[]> {
    const rows = await this.em.execute<{ id: string; url: string; form_id: string; form_name: string; workspace_id: string | null }[]>(
      `delete from webhook_endpoints e using forms f
        where f.id = e.form_id and e.id in (
          select a.target_id from audit_events a
           where a.action = 'webhook.created' and a.target_type = 'webhook'
             and ((a.actor_type = 'user' and a.actor_id = ?)
               or (a.actor_type = 'api_key' and a.actor_id in (select k.id from api_keys k where k.created_by_id = ?))))
        returning e.id, e.url, e.form_id, f.name as form_name, f.workspace_id`,
      [userId, userId],
    );
    return rows.map((row) => ({ id: row.id, url: row.url, formId: row.form_id, formName: row.form_name, workspaceId: row.workspace_id }));
  }
}
