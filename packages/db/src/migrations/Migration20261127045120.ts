import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 36: webhook deliveries shared fairly between workspaces. A due delivery whose endpoint or
 * workspace is at its cap of deliveries in flight is `held`: out of the claims' scan (the due index
 * leaves it out), taken again by its endpoint (the held index) once there is room.
 */
export class Migration20261127045120 extends Migration {

  override name = 'Migration20261127045120';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" add "held" boolean not null default false;`);
    this.addSql(`create index "webhook_deliveries_due_index" on "webhook_deliveries" ("next_attempt_at") where "status" = 'pending' and not "held";`);
    this.addSql(`create index "webhook_deliveries_held_index" on "webhook_deliveries" ("endpoint_id", "next_attempt_at") where "status" = 'pending' and "held";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_deliveries_due_index";`);
    this.addSql(`drop index "webhook_deliveries_held_index";`);
    this.addSql(`alter table "webhook_deliveries" drop column "held";`);
  }

}
