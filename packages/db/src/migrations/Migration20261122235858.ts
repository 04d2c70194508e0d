import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 14, the rest of a key's life: why a key was revoked, its expiry, the key a roll replaced it
 * with, where it was last used from, which expiry reminder it has had, and its requests per day.
 * Keys revoked before this migration were revoked by an owner. The revocation trigger also fires
 * when a key's expiry changes (a roll shortens it), so replicas re-read the key at once.
 */
export class Migration20261122235858 extends Migration {

  override name = 'Migration20261122235858';

  override up(): void | Promise<void> {
    this.addSql(`create table "api_key_usage" ("key_id" varchar(40) not null, "day" date not null, "requests" int not null, primary key ("key_id", "day"));`);

    this.addSql(`alter table "audit_events" drop constraint "audit_events_actor_type_check";`);
    this.addSql(`alter table "audit_events" add constraint "audit_events_actor_type_check" check ("actor_type" in ('user', 'api_key', 'system', 'secret_scanner'));`);

    this.addSql(`alter table "api_keys" add "revoked_reason" text null, add "expires_at" timestamptz null, add "rolled_to" varchar(40) null, add "last_used_ip" varchar(64) null, add "last_used_user_agent" varchar(512) null, add "expiry_reminder_days" smallint null;`);
    this.addSql(`create index "api_keys_expires_at_index" on "api_keys" ("expires_at");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_revoked_reason_check" check ("revoked_reason" in ('revoked', 'expired', 'rolled', 'leaked'));`);

    this.addSql(`alter table "api_key_usage" add constraint "api_key_usage_key_id_foreign" foreign key ("key_id") references "api_keys" ("id") on delete cascade;`);

    this.addSql(`update "api_keys" set "revoked_reason" = 'revoked' where "revoked_at" is not null;`);
    this.addSql(`drop trigger if exists "api_keys_notify_revoked" on "api_keys";`);
    this.addSql(`create trigger "api_keys_notify_revoked" after update of "revoked_at", "key_hash", "workspace_id", "expires_at" or delete on "api_keys" for each row execute function "lfk_notify_api_key_revoked"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "api_keys_notify_revoked" on "api_keys";`);
    this.addSql(`create trigger "api_keys_notify_revoked" after update of "revoked_at", "key_hash", "workspace_id" or delete on "api_keys" for each row execute function "lfk_notify_api_key_revoked"();`);
    this.addSql(`drop table if exists "api_key_usage" cascade;`);

    this.addSql(`drop index "api_keys_expires_at_index";`);
    this.addSql(`alter table "api_keys" drop constraint "api_keys_revoked_reason_check";`);
    this.addSql(`alter table "api_keys" drop column "revoked_reason", drop column "expires_at", drop column "rolled_to", drop column "last_used_ip", drop column "last_used_user_agent", drop column "expiry_reminder_days";`);

    this.addSql(`alter table "audit_events" drop constraint "audit_events_actor_type_check";`);
    this.addSql(`alter table "audit_events" add constraint "audit_events_actor_type_check" check ("actor_type" in ('user', 'api_key'));`);
  }

}
