import { Migration } from '@mikro-orm/migrations';

/**
 * Accounts a person can keep (issue 26): password reset links, invitations, verified account
 * addresses, and the deletes a workspace or an account takes with it (keys, forms, memberships,
 * sessions cascade; a deleted account's keys stay, their `created_by` emptied). Audit events lose
 * their foreign key: recording one must not lock the workspace's row (see entities/audit-event.ts).
 * An outbox email keeps its link's token sealed apart from its body.
 */
export class Migration20261125235921 extends Migration {

  override name = 'Migration20261125235921';

  override up(): void | Promise<void> {
    this.addSql(`create table "password_resets" ("id" varchar(40) not null, "created_at" timestamptz not null, "user_id" varchar(40) not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "password_resets" add constraint "password_resets_user_id_unique" unique ("user_id");`);
    this.addSql(`alter table "password_resets" add constraint "password_resets_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "invitations" ("id" varchar(40) not null, "created_at" timestamptz not null, "workspace_id" varchar(40) not null, "email" varchar(254) not null, "role" text not null, "token_hash" varchar(64) not null, "invited_by_id" varchar(40) null, "expires_at" timestamptz not null, "sent_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "invitations" add constraint "invitations_token_hash_unique" unique ("token_hash");`);
    this.addSql(`alter table "invitations" add constraint "invitations_workspace_id_email_unique" unique ("workspace_id", "email");`);

    this.addSql(`alter table "sessions" drop constraint "sessions_user_id_foreign";`);

    this.addSql(`alter table "projects" drop constraint "projects_workspace_id_foreign";`);

    this.addSql(`alter table "memberships" drop constraint "memberships_user_id_foreign";`);
    this.addSql(`alter table "memberships" drop constraint "memberships_workspace_id_foreign";`);

    this.addSql(`alter table "forms" drop constraint "forms_workspace_id_foreign";`);

    this.addSql(`alter table "audit_events" drop constraint "audit_events_workspace_id_foreign";`);

    this.addSql(`alter table "api_keys" drop constraint "api_keys_created_by_id_foreign";`);
    this.addSql(`alter table "api_keys" drop constraint "api_keys_workspace_id_foreign";`);

    this.addSql(`alter table "users" add "email_verified_at" timestamptz null;`);

    this.addSql(`alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "projects" add constraint "projects_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`);

    this.addSql(`alter table "memberships" add constraint "memberships_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "memberships" add constraint "memberships_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`);

    this.addSql(`alter table "forms" add constraint "forms_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`);
    // Made again after the workspace's: PostgreSQL checks a row's foreign keys in the order their
    // triggers were made, so a new form locks its workspace's row before its project's, the order a
    // workspace's delete takes them in (deleting it, then its projects): the two cannot deadlock.
    this.addSql(`alter table "forms" drop constraint "forms_project_id_foreign";`);
    this.addSql(`alter table "forms" add constraint "forms_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete set null;`);

    this.addSql(`alter table "outbox_emails" add "secret_sealed" text null;`);

    this.addSql(`alter table "email_verifications" add "user_id" varchar(40) null;`);
    this.addSql(`alter table "email_verifications" add constraint "email_verifications_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "email_verifications" alter column "form_id" drop not null;`);
    this.addSql(`create index "email_verifications_user_id_index" on "email_verifications" ("user_id");`);
    this.addSql(`alter table "email_verifications" add constraint "email_verifications_one_subject_check" check ((form_id is null) <> (user_id is null));`);

    this.addSql(`alter table "api_keys" alter column "created_by_id" drop not null;`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`);

    this.addSql(`alter table "password_resets" add constraint "password_resets_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "invitations" add constraint "invitations_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`);
    this.addSql(`alter table "invitations" add constraint "invitations_invited_by_id_foreign" foreign key ("invited_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "invitations" add constraint "invitations_role_check" check ("role" in ('owner', 'member'));`);
  }

  override down(): void | Promise<void> {
    // What the old schema cannot hold: accounts' verification links, keys whose maker is gone, events of deleted workspaces.
    this.addSql(`delete from "email_verifications" where "form_id" is null;`);
    this.addSql(`delete from "api_keys" where "created_by_id" is null;`);
    this.addSql(`delete from "audit_events" where "workspace_id" not in (select "id" from "workspaces");`);
    this.addSql(`drop table if exists "password_resets" cascade;`);
    this.addSql(`drop table if exists "invitations" cascade;`);

    this.addSql(`alter table "api_keys" drop constraint "api_keys_workspace_id_foreign";`);
    this.addSql(`alter table "api_keys" drop constraint "api_keys_created_by_id_foreign";`);

    this.addSql(`alter table "email_verifications" drop constraint "email_verifications_user_id_foreign";`);

    this.addSql(`alter table "forms" drop constraint "forms_workspace_id_foreign";`);

    this.addSql(`alter table "memberships" drop constraint "memberships_workspace_id_foreign";`);
    this.addSql(`alter table "memberships" drop constraint "memberships_user_id_foreign";`);

    this.addSql(`alter table "projects" drop constraint "projects_workspace_id_foreign";`);

    this.addSql(`alter table "sessions" drop constraint "sessions_user_id_foreign";`);

    this.addSql(`alter table "api_keys" alter column "created_by_id" set not null;`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id");`);

    this.addSql(`alter table "audit_events" add constraint "audit_events_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id");`);

    this.addSql(`drop index "email_verifications_user_id_index";`);
    this.addSql(`alter table "email_verifications" drop constraint "email_verifications_one_subject_check";`);
    this.addSql(`alter table "email_verifications" drop column "user_id";`);
    this.addSql(`alter table "email_verifications" alter column "form_id" set not null;`);

    this.addSql(`alter table "forms" add constraint "forms_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete set null;`);

    this.addSql(`alter table "memberships" add constraint "memberships_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id");`);
    this.addSql(`alter table "memberships" add constraint "memberships_user_id_foreign" foreign key ("user_id") references "users" ("id");`);

    this.addSql(`alter table "outbox_emails" drop column "secret_sealed";`);

    this.addSql(`alter table "projects" add constraint "projects_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id");`);

    this.addSql(`alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id");`);

    this.addSql(`alter table "users" drop column "email_verified_at";`);
  }

}
