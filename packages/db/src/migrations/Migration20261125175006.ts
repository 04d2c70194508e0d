import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 24, webhooks: a form's endpoints (signing secrets sealed, never plaintext) and the queue of
 * deliveries, written with the submissions they carry.
 */
export class Migration20261125175006 extends Migration {

  override name = 'Migration20261125175006';

  override up(): void | Promise<void> {

    this.addSql(`create table "webhook_endpoints" ("id" varchar(40) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "form_id" varchar(40) not null, "url" varchar(2048) not null, "description" varchar(200) null, "events" jsonb not null, "enabled" boolean not null default true, "disabled_reason" text null, "secret_sealed" text not null, "previous_secret_sealed" text null, "previous_secret_expires_at" timestamptz null, "failing_since" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "webhook_endpoints_form_id_id_index" on "webhook_endpoints" ("form_id", "id");`);

    this.addSql(`create table "webhook_deliveries" ("id" varchar(40) not null, "created_at" timestamptz not null, "endpoint_id" varchar(40) not null, "submission_id" varchar(40) null, "event_id" varchar(40) not null, "type" varchar(64) not null, "payload" text not null, "status" text not null default 'pending', "attempts" jsonb not null, "attempt_count" int not null default 0, "next_attempt_at" timestamptz null, "locked_until" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "webhook_deliveries_status_next_attempt_at_index" on "webhook_deliveries" ("status", "next_attempt_at");`);
    this.addSql(`create index "webhook_deliveries_endpoint_id_id_index" on "webhook_deliveries" ("endpoint_id", "id");`);
    // Deleting a submission cancels its deliveries (the cascade below looks them up by it), and the
    // claim counts each endpoint's deliveries in flight.
    this.addSql(`create index "webhook_deliveries_submission_id_index" on "webhook_deliveries" ("submission_id");`);
    this.addSql(`create index "webhook_deliveries_in_flight_index" on "webhook_deliveries" ("endpoint_id") where "status" = 'pending' and "locked_until" is not null;`);

    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_form_id_foreign" foreign key ("form_id") references "forms" ("id") on delete cascade;`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_disabled_reason_check" check ("disabled_reason" in ('manual', 'gone', 'failing'));`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_submission_id_foreign" foreign key ("submission_id") references "submissions" ("id") on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_status_check" check ("status" in ('pending', 'succeeded', 'failed'));`);
  }

  override down(): void | Promise<void> {

    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
  }

}
