import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 28: where a key may be used from (`allowed_ips`, null for anywhere), what it is for
 * (`description`; an allowlist is 1 to 20 entries, never an empty list), and its refused uses per
 * UTC day by reason next to the accepted ones. The
 * revocation trigger also fires when a key's allowlist changes, so replicas re-read the key at once.
 */
export class Migration20261126050000 extends Migration {

  override name = 'Migration20261126050000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "api_keys" add "allowed_ips" jsonb null, add "description" varchar(500) null;`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_allowed_ips_check" check (CASE WHEN (allowed_ips IS NULL) THEN true WHEN (jsonb_typeof(allowed_ips) = 'array'::text) THEN ((jsonb_array_length(allowed_ips) >= 1) AND (jsonb_array_length(allowed_ips) <= 20)) ELSE false END);`);
    this.addSql(`alter table "api_key_usage" alter column "requests" set default 0, add "refused_revoked" int not null default 0, add "refused_expired" int not null default 0, add "refused_rolled" int not null default 0, add "refused_leaked" int not null default 0, add "refused_address" int not null default 0;`);
    this.addSql(`drop trigger if exists "api_keys_notify_revoked" on "api_keys";`);
    this.addSql(`create trigger "api_keys_notify_revoked" after update of "revoked_at", "key_hash", "workspace_id", "expires_at", "allowed_ips" or delete on "api_keys" for each row execute function "lfk_notify_api_key_revoked"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "api_keys_notify_revoked" on "api_keys";`);
    this.addSql(`create trigger "api_keys_notify_revoked" after update of "revoked_at", "key_hash", "workspace_id", "expires_at" or delete on "api_keys" for each row execute function "lfk_notify_api_key_revoked"();`);
    this.addSql(`alter table "api_key_usage" alter column "requests" drop default, drop column "refused_revoked", drop column "refused_expired", drop column "refused_rolled", drop column "refused_leaked", drop column "refused_address";`);
    this.addSql(`alter table "api_keys" drop constraint "api_keys_allowed_ips_check";`);
    this.addSql(`alter table "api_keys" drop column "allowed_ips", drop column "description";`);
  }

}
