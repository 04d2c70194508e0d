import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40: a test event sent to an endpoint is kept in its delivery log, marked `test`, settled by
 * its one attempt (never retried by the schedule).
 */
export class Migration20261127150000 extends Migration {
  override name = 'Migration20261127150000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" add "test" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop column "test";`);
  }
}
