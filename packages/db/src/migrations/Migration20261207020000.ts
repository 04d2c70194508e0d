import { Migration } from '@mikro-orm/migrations';

/** Issue 50: the events a webhook endpoint missed while disabled, kept until they are sent. */
export class Migration20261207020000 extends Migration {
  override name = 'Migration20261207020000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add "missed_ranges" jsonb not null default '[]';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_endpoints" drop column "missed_ranges";`);
  }
}
