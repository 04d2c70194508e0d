import { Migration } from '@mikro-orm/migrations';

export class Migration20261121195009 extends Migration {

  override name = 'Migration20261121195009';

  override up(): void | Promise<void> {
    this.addSql(`create table "idempotency_records" ("id" varchar(40) not null, "scope" varchar(80) not null, "key" varchar(255) not null, "fingerprint" varchar(64) not null, "response_body" json not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "idempotency_records_expires_at_index" on "idempotency_records" ("expires_at");`);
    this.addSql(`alter table "idempotency_records" add constraint "idempotency_records_scope_key_unique" unique ("scope", "key");`);

    this.addSql(`create table "outbox_emails" ("id" varchar(40) not null, "kind" varchar(32) not null, "to" varchar(254) not null, "subject" varchar(300) not null, "body" text null, "status" text not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "locked_until" timestamptz null, "last_error" varchar(500) null, "created_at" timestamptz not null, "sent_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "outbox_emails_status_next_attempt_at_index" on "outbox_emails" ("status", "next_attempt_at");`);

    this.addSql(`create table "submissions" ("id" varchar(40) not null, "form_id" varchar(40) not null, "data" json not null, "source" text not null, "api_key_id" varchar(40) null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "submissions_form_id_id_index" on "submissions" ("form_id", "id");`);

    this.addSql(`create table "email_verifications" ("id" varchar(40) not null, "form_id" varchar(40) not null, "email" varchar(254) not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "email_verifications" add constraint "email_verifications_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "email_verifications_form_id_index" on "email_verifications" ("form_id");`);

    this.addSql(`alter table "forms" add "verification_sent_at" timestamptz null;`);

    this.addSql(`alter table "outbox_emails" add constraint "outbox_emails_status_check" check ("status" in ('pending', 'sent', 'failed'));`);

    this.addSql(`alter table "submissions" add constraint "submissions_form_id_foreign" foreign key ("form_id") references "forms" ("id") on delete cascade;`);
    this.addSql(`alter table "submissions" add constraint "submissions_source_check" check ("source" in ('browser', 'api_key'));`);

    this.addSql(`alter table "email_verifications" add constraint "email_verifications_form_id_foreign" foreign key ("form_id") references "forms" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idempotency_records" cascade;`);
    this.addSql(`drop table if exists "outbox_emails" cascade;`);
    this.addSql(`drop table if exists "submissions" cascade;`);
    this.addSql(`drop table if exists "email_verifications" cascade;`);

    this.addSql(`alter table "forms" drop column "verification_sent_at";`);
  }

}
