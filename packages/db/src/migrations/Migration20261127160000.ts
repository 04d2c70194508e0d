import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40: every secret rotated away keeps signing until its own end, not only the last one. An
 * endpoint's secrets are numbered (`secret_number`, the current one's; each rotation takes the
 * next), so one can be named to end it early; the rotated ones live in `previous_secrets`
 * (`[{ number, sealed, created_at, expires_at }]`, newest first). A secret's creation time was not
 * kept before: the current one's is the last rotation (24 hours before its predecessor's end) or
 * the endpoint's creation; a previous one's is unknown (null).
 */
export class Migration20261127160000 extends Migration {
  override name = 'Migration20261127160000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add "secret_number" int not null default 1, add "secret_created_at" timestamptz null, add "previous_secrets" jsonb not null default '[]';`);
    this.addSql(`update "webhook_endpoints" set "secret_created_at" = coalesce("previous_secret_expires_at" - interval '24 hours', "created_at");`);
    this.addSql(`update "webhook_endpoints" set "secret_number" = 2,
      "previous_secrets" = jsonb_build_array(jsonb_build_object('number', 1, 'sealed', "previous_secret_sealed", 'created_at', null, 'expires_at', "previous_secret_expires_at"))
      where "previous_secret_sealed" is not null and "previous_secret_expires_at" is not null;`);
    this.addSql(`alter table "webhook_endpoints" alter column "secret_created_at" set not null;`);
    this.addSql(`alter table "webhook_endpoints" drop column "previous_secret_sealed", drop column "previous_secret_expires_at";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add "previous_secret_sealed" text null, add "previous_secret_expires_at" timestamptz null;`);
    this.addSql(`update "webhook_endpoints" set "previous_secret_sealed" = "previous_secrets" -> 0 ->> 'sealed', "previous_secret_expires_at" = ("previous_secrets" -> 0 ->> 'expires_at')::timestamptz;`);
    this.addSql(`alter table "webhook_endpoints" drop column "secret_number", drop column "secret_created_at", drop column "previous_secrets";`);
  }
}
