import { Migration } from '@mikro-orm/migrations';

export class Migration20261121192523 extends Migration {

  override name = 'Migration20261121192523';

  override up(): void | Promise<void> {
    this.addSql(`create table "users" ("id" varchar(40) not null, "email" varchar(254) not null, "name" varchar(100) null, "password_hash" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(`create table "sessions" ("id" varchar(40) not null, "user_id" varchar(40) not null, "token_hash" varchar(64) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "workspaces" ("id" varchar(40) not null, "name" varchar(100) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);

    this.addSql(`create table "projects" ("id" varchar(40) not null, "workspace_id" varchar(40) not null, "name" varchar(100) not null, "is_default" boolean not null default false, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "projects_workspace_id_id_index" on "projects" ("workspace_id", "id");`);

    this.addSql(`create table "memberships" ("id" varchar(40) not null, "workspace_id" varchar(40) not null, "user_id" varchar(40) not null, "role" text not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "memberships_user_id_index" on "memberships" ("user_id");`);
    this.addSql(`alter table "memberships" add constraint "memberships_workspace_id_user_id_unique" unique ("workspace_id", "user_id");`);

    this.addSql(`create table "forms" ("id" varchar(40) not null, "workspace_id" varchar(40) null, "project_id" varchar(40) null, "name" varchar(200) not null, "state" text not null, "schema" jsonb not null, "submission_mode" text not null default 'browser', "allowed_origins" jsonb not null, "notify_email" varchar(254) null, "notify_email_verified" boolean not null default false, "redirect_url" varchar(2048) null, "claim_token_hash" varchar(64) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "forms" add constraint "forms_claim_token_hash_unique" unique ("claim_token_hash");`);
    this.addSql(`create index "forms_workspace_id_id_index" on "forms" ("workspace_id", "id");`);

    this.addSql(`create table "audit_events" ("id" varchar(40) not null, "workspace_id" varchar(40) not null, "action" varchar(64) not null, "actor_type" text not null, "actor_id" varchar(40) not null, "target_type" varchar(32) null, "target_id" varchar(40) null, "data" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "audit_events_workspace_id_id_index" on "audit_events" ("workspace_id", "id");`);

    this.addSql(`create table "api_keys" ("id" varchar(40) not null, "workspace_id" varchar(40) not null, "name" varchar(64) null, "prefix" varchar(16) not null, "key_hash" varchar(64) not null, "created_by_id" varchar(40) not null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, "revoked_by_id" varchar(40) null, primary key ("id"));`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);
    this.addSql(`create index "api_keys_workspace_id_id_index" on "api_keys" ("workspace_id", "id");`);

    this.addSql(`alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id");`);

    this.addSql(`alter table "projects" add constraint "projects_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id");`);

    this.addSql(`alter table "memberships" add constraint "memberships_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id");`);
    this.addSql(`alter table "memberships" add constraint "memberships_user_id_foreign" foreign key ("user_id") references "users" ("id");`);
    this.addSql(`alter table "memberships" add constraint "memberships_role_check" check ("role" in ('owner', 'member'));`);

    this.addSql(`alter table "forms" add constraint "forms_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete set null;`);
    this.addSql(`alter table "forms" add constraint "forms_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete set null;`);
    this.addSql(`alter table "forms" add constraint "forms_state_check" check ("state" in ('unclaimed', 'claimed'));`);
    this.addSql(`alter table "forms" add constraint "forms_submission_mode_check" check ("submission_mode" in ('browser', 'api_key'));`);

    this.addSql(`alter table "audit_events" add constraint "audit_events_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id");`);
    this.addSql(`alter table "audit_events" add constraint "audit_events_actor_type_check" check ("actor_type" in ('user', 'api_key'));`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_revoked_by_id_foreign" foreign key ("revoked_by_id") references "users" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "sessions" drop constraint "sessions_user_id_foreign";`);
    this.addSql(`alter table "memberships" drop constraint "memberships_user_id_foreign";`);
    this.addSql(`alter table "api_keys" drop constraint "api_keys_created_by_id_foreign";`);
    this.addSql(`alter table "api_keys" drop constraint "api_keys_revoked_by_id_foreign";`);
    this.addSql(`alter table "projects" drop constraint "projects_workspace_id_foreign";`);
    this.addSql(`alter table "memberships" drop constraint "memberships_workspace_id_foreign";`);
    this.addSql(`alter table "forms" drop constraint "forms_workspace_id_foreign";`);
    this.addSql(`alter table "audit_events" drop constraint "audit_events_workspace_id_foreign";`);
    this.addSql(`alter table "api_keys" drop constraint "api_keys_workspace_id_foreign";`);
    this.addSql(`alter table "forms" drop constraint "forms_project_id_foreign";`);

    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "sessions" cascade;`);
    this.addSql(`drop table if exists "workspaces" cascade;`);
    this.addSql(`drop table if exists "projects" cascade;`);
    this.addSql(`drop table if exists "memberships" cascade;`);
    this.addSql(`drop table if exists "forms" cascade;`);
    this.addSql(`drop table if exists "audit_events" cascade;`);
    this.addSql(`drop table if exists "api_keys" cascade;`);
  }

}
