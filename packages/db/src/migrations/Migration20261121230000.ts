import { Migration } from '@mikro-orm/migrations';

/**
 * Every change that can end a key's validity notifies `lfk_api_key_revoked` with the key's hash,
 * whoever makes it (the API, a script, psql). PostgreSQL delivers it when the transaction commits,
 * so replicas drop their cached verification exactly when the revocation becomes visible.
 */
export class Migration20261121230000 extends Migration {
  override name = 'Migration20261121230000';

  override up(): void | Promise<void> {
    this.addSql(`create function "lfk_notify_api_key_revoked"() returns trigger language plpgsql as $$
begin
  perform pg_notify('lfk_api_key_revoked', old.key_hash);
  return null;
end
$$;`);
    this.addSql(`create trigger "api_keys_notify_revoked" after update of "revoked_at", "key_hash", "workspace_id" or delete on "api_keys" for each row execute function "lfk_notify_api_key_revoked"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "api_keys_notify_revoked" on "api_keys";`);
    this.addSql(`drop function if exists "lfk_notify_api_key_revoked"();`);
  }
}
