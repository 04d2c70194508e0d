import { Migration } from '@mikro-orm/migrations';

/** What a submission reads of its form (`FormRepository.readForSubmission`), but `refused_origins`. */
const READ_BY_SUBMISSIONS = [
  'id', 'workspace_id', 'project_id', 'name', 'state', 'schema', 'submission_mode', 'allowed_origins', 'notify_email',
  'notify_email_verified', 'notify_email_fallback', 'redirect_url', 'honeypot', 'captcha_provider', 'captcha_site_key',
  'captcha_secret_sealed', 'closed', 'closes_at', 'max_submissions', 'closed_message', 'retention_days', 'created_at', 'updated_at',
].map((column) => `"${column}"`).join(', ');

/**
 * Issue 39: every change to what a submission reads of a form notifies `lfk_form_changed` with the
 * form's id, whoever makes it (the API, a script, psql), so each process drops its cached copy when
 * the change commits. `refused_origins` is left out: submissions do not read it, and a flood of
 * refused origins rewrites it, which would empty every replica's cache as fast as it fills. A
 * deletion notifies too, a workspace's cascade included (row triggers fire for cascaded deletes).
 * Webhook endpoints notify for the old and the new form when they decide `has_webhooks` (`form_id`,
 * `enabled`); which events one subscribes to is read afresh by each submission that queues
 * deliveries, so `events` needs no notification.
 */
export class Migration20261127095424 extends Migration {
  override name = 'Migration20261127095424';

  override up(): void | Promise<void> {
    this.addSql(`create function "lfk_notify_form_changed"() returns trigger language plpgsql as $$
begin
  perform pg_notify('lfk_form_changed', old.id);
  return null;
end
$$;`);
    this.addSql(`create trigger "forms_notify_changed" after update of ${READ_BY_SUBMISSIONS} or delete on "forms" for each row execute function "lfk_notify_form_changed"();`);
    this.addSql(`create function "lfk_notify_webhook_form_changed"() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then perform pg_notify('lfk_form_changed', old.form_id); end if;
  if tg_op <> 'DELETE' then perform pg_notify('lfk_form_changed', new.form_id); end if;
  return null;
end
$$;`);
    this.addSql(`create trigger "webhook_endpoints_notify_form_changed" after insert or delete or update of "form_id", "enabled" on "webhook_endpoints" for each row execute function "lfk_notify_webhook_form_changed"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "webhook_endpoints_notify_form_changed" on "webhook_endpoints";`);
    this.addSql(`drop function if exists "lfk_notify_webhook_form_changed"();`);
    this.addSql(`drop trigger if exists "forms_notify_changed" on "forms";`);
    this.addSql(`drop function if exists "lfk_notify_form_changed"();`);
  }
}
