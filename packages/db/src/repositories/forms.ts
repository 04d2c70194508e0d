import type { AutoReply, DraftSettings, IForm, NotifyAddress, RefusedOrigin, SpamFilterSettings, StoredField } from '../entities/form.ts';
import { PreparedStatement, runPrepared } from '../prepared-statements.ts';
import { BaseRepository, type Bounded, type ReadBounds } from './base-repository.ts';

/**
 * A form as its row holds it, with no entity around it: what a read that changes nothing
 * needs. Its fields are named and shaped as the entity's, so one serializer serves both.
 */
export type FormReading = Pick<
  IForm,
  | 'id'
  | 'name'
  | 'state'
  | 'schema'
  | 'unknownFields'
  | 'submissionMode'
  | 'allowedOrigins'
  | 'notifyEmails'
  | 'notifyFallback'
  | 'refusedOrigins'
  | 'redirectUrl'
  | 'errorRedirectUrl'
  | 'honeypot'
  | 'captchaProvider'
  | 'captchaSiteKey'
  | 'captchaSecretSealed'
  | 'closed'
  | 'closesAt'
  | 'maxSubmissions'
  | 'closedMessage'
  | 'retentionDays'
  | 'autoReply'
  | 'autoRepliesSkipped'
  | 'drafts'
  | 'spamFilter'
  | 'createdAt'
  | 'updatedAt'
> & { workspace?: { id: string } | null; project?: { id: string } | null };

/** A form as a submission is checked against it: its reading, and whether anything listens. */
export type SubmissionFormReading = FormReading & {
  /** Whether an enabled webhook endpoint listens to the form: a submission queues deliveries only then. */
  hasWebhooks: boolean;
};

interface FormRow {
  id: string;
  workspace_id: string | null;
  project_id: string | null;
  name: string;
  state: IForm['state'];
  schema: StoredField[] | string;
  unknown_fields: IForm['unknownFields'];
  submission_mode: IForm['submissionMode'];
  allowed_origins: string[] | string;
  notify_emails: NotifyAddress[] | string;
  notify_fallback: string[] | string | null;
  refused_origins: RefusedOrigin[] | string | null;
  redirect_url: string | null;
  error_redirect_url: string | null;
  honeypot: string | null;
  captcha_provider: IForm['captchaProvider'];
  captcha_site_key: string | null;
  captcha_secret_sealed: string | null;
  closed: boolean;
  closes_at: Date | string | null;
  max_submissions: number | null;
  closed_message: string | null;
  retention_days: number | null;
  auto_reply: AutoReply | string | null;
  auto_replies_skipped: number;
  drafts: DraftSettings | string | null;
  spam_filter: SpamFilterSettings | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  has_webhooks?: boolean;
}

// What a raw statement answers is the driver's: json and timestamps may come back parsed or as text.
const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
const reference = (id: string | null) => (id === null ? null : { id });

const COLUMNS =
  'id, workspace_id, project_id, name, state, schema, unknown_fields, submission_mode, allowed_origins, notify_emails, ' +
  'notify_fallback, refused_origins, redirect_url, error_redirect_url, honeypot, captcha_provider, captcha_site_key, captcha_secret_sealed, ' +
  'closed, closes_at, ' +
  'max_submissions, closed_message, retention_days, auto_reply, auto_replies_skipped, drafts, spam_filter, created_at, updated_at';
const READ_CLAIMED = new PreparedStatement('lfk_read_claimed_form', `select ${COLUMNS} from forms where id = $1 and state = 'claimed'`);
const READ_FOR_SUBMISSION = new PreparedStatement(
  'lfk_read_submission_form',
  `select ${COLUMNS}, exists (select 1 from webhook_endpoints w where w.form_id = forms.id and w.enabled) as has_webhooks from forms where id = $1`,
);

export class FormRepository extends BaseRepository<IForm> {
  /**
   * A workspace's forms, newest first, below `before`: a page of its list, bounded by their fields'
   * and origins' size (a form's fields alone may near 1 MiB).
   */
  newestOfWorkspace(workspaceId: string, before: string | undefined, bounds: ReadBounds): Promise<Bounded<IForm>> {
    return this.newestFirstWithin('workspace_id', workspaceId, before, bounds, 'octet_length(schema::text) + octet_length(allowed_origins::text)');
  }

  /**
   * A member verified `email` as their account's: the forms of their workspaces that notify it have
   * it verified too (and let their fallback go). Answers their ids.
   */
  async verifyNotifyEmailOfMember(userId: string, email: string): Promise<string[]> {
    const rows = await this.em.execute<{ id: string }[]>(
      `update forms set notify_fallback = null, notify_emails = (
         select jsonb_agg(case when entry->>'email' = ? then jsonb_set(entry, '{verified}', 'true') else entry end order by place)
           from jsonb_array_elements(forms.notify_emails) with ordinality as listed(entry, place)
       )
        where notify_emails @> jsonb_build_array(jsonb_build_object('email', ?::text, 'verified', false))
          and workspace_id in (select workspace_id from memberships where user_id = ?)
        returning id`,
      [email, email, userId],
    );
    return rows.map((row) => row.id);
  }

  /** A form in a workspace; unclaimed forms are reached only through their claim token. */
  findClaimed(formId: string): Promise<IForm | null> {
    return this.findOne({ id: formId, state: 'claimed' });
  }

  /**
   * `findClaimed` for a read: one statement and a plain object, without the entity's hydration and
   * identity map, which a read that changes nothing does not use (it is most of the request's time).
   */
  async readClaimed(formId: string): Promise<FormReading | null> {
    const [row] = await runPrepared<FormRow>(this.em, READ_CLAIMED, [formId]);
    return row ? readingOf(row) : null;
  }

  /** Any form, claimed or not, the same way, with whether webhooks listen: what a submission is checked against. */
  async readForSubmission(formId: string): Promise<SubmissionFormReading | null> {
    const [row] = await runPrepared<FormRow>(this.em, READ_FOR_SUBMISSION, [formId]);
    return row ? { ...readingOf(row), hasWebhooks: row.has_webhooks === true } : null;
  }

  /** The workspace of each of these forms that has one (unclaimed forms have none). */
  async workspacesOf(formIds: string[]): Promise<Map<string, string>> {
    if (formIds.length === 0) return new Map();
    const rows = await this.em.execute<{ id: string; workspace_id: string | null }[]>(
      `select id, workspace_id from forms where id in (${formIds.map(() => '?').join(', ')})`,
      formIds,
    );
    return new Map(rows.flatMap((r) => (r.workspace_id ? [[r.id, r.workspace_id] as const] : [])));
  }

  /**
   * Records that the form refused `origin` at `at`: it goes first in the form's refused origins,
   * which keep the newest `keep` distinct ones. One statement, so concurrent refusals lose none.
   */
  async noteRefusedOrigin(formId: string, origin: string, at: Date, keep: number): Promise<void> {
    await this.em.execute(
      // Newest first; at the same instant the new one first, then the others as they were.
      `update forms set refused_origins = (
         select jsonb_agg(entry order by entry->>'at' desc, place) from (
           select entry, place from (
             select jsonb_build_object('origin', ?::text, 'at', ?::text) as entry, 0::bigint as place
             union all
             select e, n from jsonb_array_elements(coalesce(forms.refused_origins, '[]'::jsonb)) with ordinality as kept(e, n)
              where e->>'origin' <> ?
           ) every_entry
           order by entry->>'at' desc, place
           limit ?
         ) newest
       ) where id = ?`,
      [origin, at.toISOString(), origin, keep, formId],
    );
  }

  /** Counts one auto-reply the form did not send (`autoRepliesSkipped`). */
  async countSkippedAutoReply(formId: string): Promise<void> {
    await this.em.execute('update forms set auto_replies_skipped = auto_replies_skipped + 1 where id = ?', [formId]);
  }

  /** Deletes the form; what it holds goes with it (the foreign keys cascade). */
  async deleteNow(formId: string): Promise<void> {
    await this.em.execute('delete from forms where id = ?', [formId]);
  }

  /**
   * Locks the form's row to the end of the transaction: a capped form's submissions take it, so
   * "count, then write if under the cap" is one step for concurrent posts.
   */
  async lockRow(formId: string): Promise<void> {
    await this.em.execute('select id from forms where id = ? for update', [formId]);
  }
}

function readingOf(row: FormRow): FormReading {
  return {
    id: row.id,
    workspace: reference(row.workspace_id),
    project: reference(row.project_id),
    name: row.name,
    state: row.state,
    schema: json(row.schema),
    unknownFields: row.unknown_fields,
    submissionMode: row.submission_mode,
    allowedOrigins: json(row.allowed_origins),
    notifyEmails: json(row.notify_emails),
    notifyFallback: row.notify_fallback === null ? null : json(row.notify_fallback),
    refusedOrigins: row.refused_origins === null ? null : json(row.refused_origins),
    redirectUrl: row.redirect_url,
    errorRedirectUrl: row.error_redirect_url,
    honeypot: row.honeypot,
    captchaProvider: row.captcha_provider,
    captchaSiteKey: row.captcha_site_key,
    captchaSecretSealed: row.captcha_secret_sealed,
    closed: row.closed,
    closesAt: row.closes_at === null ? null : new Date(row.closes_at),
    maxSubmissions: row.max_submissions,
    closedMessage: row.closed_message,
    retentionDays: row.retention_days,
    autoReply: row.auto_reply === null ? null : json(row.auto_reply),
    autoRepliesSkipped: row.auto_replies_skipped,
    drafts: row.drafts === null ? null : json(row.drafts),
    spamFilter: row.spam_filter === null ? null : json(row.spam_filter),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}
