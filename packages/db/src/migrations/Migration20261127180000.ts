import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40: an endpoint may sign with Ed25519 (Standard Webhooks' `v1a`) rather than a shared
 * secret: `signing` says which, and `public_key` holds the current key's public half (`whpk_…`).
 * Every endpoint so far shares a secret.
 */
export class Migration20261127180000 extends Migration {
  override name = 'Migration20261127180000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add "signing" text not null default 'hmac-sha256', add "public_key" varchar(64) null;`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_signing_check" check ("signing" in ('hmac-sha256', 'ed25519'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_endpoints" drop constraint "webhook_endpoints_signing_check";`);
    this.addSql(`alter table "webhook_endpoints" drop column "signing", drop column "public_key";`);
  }
}
