import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40: an endpoint may be a Slack or Discord incoming webhook (`kind`), which receives a
 * readable message about each event instead of its JSON. Every endpoint so far is a `webhook`.
 */
export class Migration20261127190000 extends Migration {
  override name = 'Migration20261127190000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add "kind" text not null default 'webhook';`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_kind_check" check ("kind" in ('webhook', 'slack', 'discord'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_endpoints" drop constraint "webhook_endpoints_kind_check";`);
    this.addSql(`alter table "webhook_endpoints" drop column "kind";`);
  }
}
