import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 36: webhook deliveries shared fairly between workspaces. A due delivery whose endpoint or
 * workspace is at its cap of deliveries in flight is set aside (`waiting_for_room`): out of the
 * claims' scan (the due index leaves it out), taken again by its endpoint (the waiting index) once
 * there is room. (Not the `held` status, which is a delivery kept back from a moved endpoint.)
 */
export class Migration20261127045120 extends Migration {

  override name = 'Migration20261127045120';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" add "waiting_for_room" boolean not null default false;`);
    this.addSql(`create index "webhook_deliveries_due_index" on "webhook_deliveries" ("next_attempt_at") where "status" = 'pending' and not "waiting_for_room";`);
    this.addSql(`create index "webhook_deliveries_waiting_index" on "webhook_deliveries" ("endpoint_id", "next_attempt_at") where "status" = 'pending' and "waiting_for_room";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_deliveries_due_index";`);
    this.addSql(`drop index "webhook_deliveries_waiting_index";`);
    this.addSql(`alter table "webhook_deliveries" drop column "waiting_for_room";`);
  }

}
