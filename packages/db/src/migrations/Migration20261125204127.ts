import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 25, the inbox: a form's spam settings (its captcha secret sealed), closing and retention;
 * a submission's status; and the link from a notification email to its submission, so deleting the
 * submission deletes the email (its body holds the values) as it already deletes its deliveries.
 */
export class Migration20261125204127 extends Migration {

  override name = 'Migration20261125204127';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add "honeypot" varchar(64) null, add "captcha_provider" text null, add "captcha_site_key" varchar(200) null, add "captcha_secret_sealed" text null, add "closed" boolean not null default false, add "closes_at" timestamptz null, add "max_submissions" int null, add "closed_message" varchar(1000) null, add "retention_days" int null;`);
    this.addSql(`alter table "forms" add constraint "forms_captcha_provider_check" check ("captcha_provider" in ('turnstile', 'hcaptcha', 'recaptcha'));`);

    this.addSql(`drop index "submissions_form_id_id_index";`);
    this.addSql(`alter table "submissions" add "status" text not null default 'ok', add "spam_reason" text null;`);
    this.addSql(`create index "submissions_form_id_status_id_index" on "submissions" ("form_id", "status", "id");`);
    this.addSql(`create index "submissions_form_id_created_at_index" on "submissions" ("form_id", "created_at");`);
    this.addSql(`alter table "submissions" add constraint "submissions_status_check" check ("status" in ('ok', 'spam'));`);
    this.addSql(`alter table "submissions" add constraint "submissions_spam_reason_check" check ("spam_reason" in ('honeypot', 'captcha_unverified', 'marked'));`);

    this.addSql(`alter table "outbox_emails" add "submission_id" varchar(40) null;`);
    this.addSql(`alter table "outbox_emails" add constraint "outbox_emails_submission_id_foreign" foreign key ("submission_id") references "submissions" ("id") on delete cascade;`);
    // The cascade above looks emails up by their submission; the spam sweep reads spam by age, across forms.
    this.addSql(`create index "outbox_emails_submission_id_index" on "outbox_emails" ("submission_id") where "submission_id" is not null;`);
    this.addSql(`create index "submissions_spam_created_at_index" on "submissions" ("created_at") where "status" = 'spam';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "outbox_emails_submission_id_index";`);
    this.addSql(`drop index "submissions_spam_created_at_index";`);
    this.addSql(`alter table "outbox_emails" drop constraint "outbox_emails_submission_id_foreign";`);

    this.addSql(`alter table "forms" drop constraint "forms_captcha_provider_check";`);
    this.addSql(`alter table "forms" drop column "honeypot", drop column "captcha_provider", drop column "captcha_site_key", drop column "captcha_secret_sealed", drop column "closed", drop column "closes_at", drop column "max_submissions", drop column "closed_message", drop column "retention_days";`);

    this.addSql(`alter table "outbox_emails" drop column "submission_id";`);

    this.addSql(`drop index "submissions_form_id_status_id_index";`);
    this.addSql(`drop index "submissions_form_id_created_at_index";`);
    this.addSql(`alter table "submissions" drop constraint "submissions_status_check";`);
    this.addSql(`alter table "submissions" drop constraint "submissions_spam_reason_check";`);
    this.addSql(`alter table "submissions" drop column "status", drop column "spam_reason";`);
    this.addSql(`create index "submissions_form_id_id_index" on "submissions" ("form_id", "id");`);
  }

}
