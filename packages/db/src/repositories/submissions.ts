import { BaseRepository, type Bounded, boundedRead, type ReadBounds } from './base-repository.ts';
import type { ContentSignal, SpamReason, SubmissionSource, SubmissionStatus } from '@lfk/vocabulary';
import type { ISubmission } from '../entities/submission.ts';
import { isId, newId } from '../ids.ts';
import { INSERT_OUTBOX_EMAIL, type NewEmail, outboxEmailRow } from './outbox-email-rows.ts';
import { PreparedStatement, runPrepared } from '../prepared-statements.ts';
import { GroupCommit, groupCommitOf } from '../group-commit.ts';
import type { EntityManager } from '@mikro-orm/sql';

const INSERT_SUBMISSION_COLUMNS = 'insert into submissions (id, form_id, data, source, api_key_id, status, spam_reason, spam_score, spam_reasons, created_at)';
const INSERT_SUBMISSION = `${INSERT_SUBMISSION_COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;
const WRITE_SUBMISSION = new PreparedStatement('lfk_write_submission', INSERT_SUBMISSION);
const WRITE_NOTIFYING_SUBMISSION = new PreparedStatement(
  'lfk_write_notifying_submission',
  `with submission as (${INSERT_SUBMISSION} returning id) ` +
    `${INSERT_OUTBOX_EMAIL} select $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24 from submission`,
);

export interface NewSubmission {
  formId: string;
  /** The values as validated: stored as the JSON text they make, so they read back unchanged. */
  data: Record<string, unknown>;
  source: SubmissionSource;
  /** The key that authenticated a server-side submission. */
  apiKeyId: string | null;
  status: SubmissionStatus;
  spamReason: SpamReason | null;
  /** The content filter's score and reasons; null when the form's filter is off. */
  spamScore: number | null;
  spamReasons: SpamReasonEntry[] | null;
}

/** What the content filter read in a submission: a signal's code, and its sentence. */
export interface SpamReasonEntry {
  code: ContentSignal;
  message: string;
}

/** A submission's row (`INSERT_SUBMISSION`'s values) and those of the emails it sends. */
interface SubmissionWrite {
  row: unknown[];
  emailRows: unknown[][];
}

const placeholders = (rows: unknown[][]) => rows.map((values) => `(${values.map(() => '?').join(', ')})`).join(', ');

/**
 * The embedded database's submissions, grouped (group-commit.ts): one `INSERT` of every row, and
 * the emails in the same transaction. A batch weighs what its values do, so a few large
 * submissions are not made into one huge statement.
 */
function submissionWrites(em: EntityManager): GroupCommit<SubmissionWrite> {
  const write = async (writes: SubmissionWrite[]) => {
    const rows = writes.map((w) => w.row);
    const emailRows = writes.flatMap((w) => w.emailRows);
    const insertRows = (on: EntityManager) => on.execute(`${INSERT_SUBMISSION_COLUMNS} values ${placeholders(rows)}`, rows.flat());
    if (emailRows.length === 0) {
      await insertRows(em);
      return;
    }
    await em.transactional(async (tx) => {
      await insertRows(tx);
      await tx.execute(`${INSERT_OUTBOX_EMAIL} values ${placeholders(emailRows)}`, emailRows.flat());
    });
  };
  const weigh = (w: SubmissionWrite) => String(w.row[2]).length + w.emailRows.reduce((sum, email) => sum + String(email[4]).length, 0);
  return new GroupCommit(write, weigh, { maxItems: 64, maxWeight: 1024 * 1024 });
}

/** Which of a form's submissions a list, an export or a count reads. */
export interface SubmissionFilter {
  status: SubmissionStatus;
  /** From this time on (inclusive). */
  since?: Date;
  /** Before this time (exclusive). */
  until?: Date;
  /** A substring of any one value, whatever its case. */
  q?: string;
}

/** A submission as its row holds it, with no entity around it: what lists and exports read. */
export interface SubmissionReading {
  id: string;
  form: { id: string };
  data: Record<string, unknown>;
  source: SubmissionSource;
  status: SubmissionStatus;
  spamReason?: SpamReason | null;
  spamScore?: number | null;
  spamReasons?: SpamReasonEntry[] | null;
  createdAt: Date;
}

/** A form's submissions at a glance: how many real ones, and when the last arrived. */
export interface SubmissionStats {
  count: number;
  lastAt: Date | null;
}

interface SubmissionRow {
  id: string;
  form_id: string;
  data: Record<string, unknown> | string;
  source: SubmissionSource;
  status: SubmissionStatus;
  spam_reason: SpamReason | null;
  spam_score: number | null;
  spam_reasons: SpamReasonEntry[] | string | null;
  created_at: Date | string;
}

const COLUMNS = 'id, form_id, data, source, status, spam_reason, spam_score, spam_reasons, created_at';
/** The same, of the table named `t` (a bounded read's). */
const COLUMNS_OF_T = COLUMNS.split(', ')
  .map((column) => `t.${column}`)
  .join(', ');

/** A place in a form's stream of events: a transaction's id (as text: it is a bigint), then a submission id. */
export interface StreamPosition {
  seq: string;
  id: string;
}

/** The id of the transaction running this statement, as `stream_seq` keeps it. */
const CURRENT_TRANSACTION = '((pg_current_xact_id())::text)::bigint';
/** The oldest transaction still running (or the next to start): what is below it has ended, committed or not. */
const OLDEST_RUNNING = '((pg_snapshot_xmin(pg_current_snapshot()))::text)::bigint';
/** After every submission id: with a transaction's id, the place after all of that transaction's submissions. */
const STREAM_LAST_ID = `sub_${'z'.repeat(26)}`;

/** The retention sweep's advisory lock: any constant every replica shares ("lfk%"). */
const SWEEP_LOCK = 0x6c666b25;

const readingOf = (row: SubmissionRow): SubmissionReading => ({
  id: row.id,
  form: { id: row.form_id },
  // What a raw statement answers is the driver's: json may come back parsed or as text.
  data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
  source: row.source,
  status: row.status,
  spamReason: row.spam_reason,
  spamScore: row.spam_score,
  spamReasons: typeof row.spam_reasons === 'string' ? (JSON.parse(row.spam_reasons) as SpamReasonEntry[]) : row.spam_reasons,
  createdAt: new Date(row.created_at),
});

/** `%` and `_` in what a person searches for are themselves, not patterns. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The `where` of a filter over one form's submissions, and its parameters. */
function whereOf(formId: string, filter: SubmissionFilter): { sql: string; params: unknown[] } {
  const clauses = ['form_id = ?', 'status = ?'];
  const params: unknown[] = [formId, filter.status];
  if (filter.since) {
    clauses.push('created_at >= ?');
    params.push(filter.since);
  }
  if (filter.until) {
    clauses.push('created_at < ?');
    params.push(filter.until);
  }
  if (filter.q) {
    // Values only, not field names: a search for "email" finds no submission for having an email field.
    clauses.push(`exists (select 1 from json_each_text(data) v where v.value ilike ? escape '\\')`);
    params.push(likePattern(filter.q));
  }
  return { sql: clauses.join(' and '), params };
}

/** A submission deleted: what its `submission.deleted` event tells. */
export interface DeletedSubmission {
  id: string;
  status: SubmissionStatus;
  createdAt: Date;
}

interface DeletedRow {
  id: string;
  status: SubmissionStatus;
  created_at: Date | string;
}

const deletedOf = (row: DeletedRow): DeletedSubmission => ({ id: row.id, status: row.status, createdAt: new Date(row.created_at) });

/** Expired submissions deleted by one batch of the sweep, per form. */
export interface ExpiredBatch {
  deleted: number;
  byForm: Map<string, { retention: number; spam: number }>;
}

export class SubmissionRepository extends BaseRepository<ISubmission> {
  /** The form's submission with this id; null for another form's submission, as for a missing one. */
  findInForm(formId: string, submissionId: string): Promise<ISubmission | null> {
    return isId('sub', submissionId) ? this.findOne({ id: submissionId, form: formId }) : Promise.resolve(null);
  }

  /**
   * The form's submission with this id, its row locked to the end of the transaction and read
   * after the lock is granted (so two changes of its status are decided one after the other, each
   * seeing the other's outcome); null for another form's submission, as for a missing one.
   */
  async lockInForm(formId: string, submissionId: string): Promise<SubmissionReading | null> {
    if (!isId('sub', submissionId)) return null;
    const [row] = await this.em.execute<SubmissionRow[]>(`select ${COLUMNS} from submissions where id = ? and form_id = ? for update`, [submissionId, formId]);
    return row ? readingOf(row) : null;
  }

  /**
   * Its status now. Its place in the form's stream moves to this transaction's: a submission
   * released from spam is read by a stream's readers as new, wherever their cursor stands.
   */
  async setStatus(submissionId: string, status: SubmissionStatus, spamReason: SpamReason | null): Promise<void> {
    await this.em.execute(`update submissions set status = ?, spam_reason = ?, stream_seq = ${CURRENT_TRANSACTION} where id = ?`, [
      status,
      spamReason,
      submissionId,
    ]);
  }

  /**
   * Where the form's stream stands now: every submission of a transaction that has ended is before
   * it (ids of later ones are at least the oldest still running).
   */
  async streamNow(): Promise<StreamPosition> {
    const [row] = await this.em.execute<{ seq: string | number }[]>(`select ${OLDEST_RUNNING} - 1 as seq`);
    return { seq: String(row!.seq), id: STREAM_LAST_ID };
  }

  /** The submission's place in its form's stream, or null for one that is not the form's. */
  async streamPositionOf(formId: string, submissionId: string): Promise<StreamPosition | null> {
    if (!isId('sub', submissionId)) return null;
    const [row] = await this.em.execute<{ seq: string | number }[]>('select stream_seq as seq from submissions where id = ? and form_id = ?', [
      submissionId,
      formId,
    ]);
    return row ? { seq: String(row.seq), id: submissionId } : null;
  }

  /**
   * The last place of each form's stream that a reader may take now (as `streamAfter` sees it), in
   * one statement for every form: how held long polls learn that a form has news. A form with
   * nothing yet is left out.
   */
  async streamHeads(formIds: string[]): Promise<Map<string, StreamPosition>> {
    const heads = new Map<string, StreamPosition>();
    // A statement takes at most 65,535 parameters: the forms are asked about a thousand at a time.
    for (let start = 0; start < formIds.length; start += 1000) {
      const some = formIds.slice(start, start + 1000);
      const rows = await this.em.execute<{ form_id: string; stream_seq: string | number; id: string }[]>(
        `select f.form_id, h.stream_seq, h.id from (values ${some.map(() => '(?)').join(', ')}) as f(form_id)
         cross join lateral (
           select stream_seq, id from submissions
           where form_id = f.form_id and status = 'ok' and stream_seq < ${OLDEST_RUNNING}
           order by stream_seq desc, id desc limit 1
         ) h`,
        some,
      );
      for (const row of rows) heads.set(row.form_id, { seq: String(row.stream_seq), id: row.id });
    }
    return heads;
  }

  /**
   * The form's real submissions after `after` in its stream, in commit order, within `bounds`: only
   * those of transactions older than every one still running, so none can commit behind them later.
   */
  async streamAfter(formId: string, after: StreamPosition, bounds: ReadBounds): Promise<Bounded<SubmissionReading & { position: StreamPosition }>> {
    const rows = await this.em.execute<(SubmissionRow & { stream_seq: string | number; more: boolean })[]>(
      `with firsts as (
         select id, stream_seq, octet_length(data::text) as bytes from submissions
         where form_id = ? and status = 'ok' and (stream_seq, id) > (?::bigint, ?) and stream_seq < ${OLDEST_RUNNING}
         order by stream_seq, id limit ?
       ), bounded as (
         select id, stream_seq, (row_number() over w <= ? and sum(bytes) over w - bytes < ?) as fits from firsts window w as (order by stream_seq, id)
       )
       select ${COLUMNS_OF_T}, b.stream_seq, exists (select 1 from bounded where not fits) as more
       from bounded b join submissions t on t.id = b.id where b.fits order by b.stream_seq, b.id`,
      [formId, after.seq, after.id, bounds.rows + 1, bounds.rows, bounds.bytes],
    );
    return {
      rows: rows.map((row) => ({ ...readingOf(row), position: { seq: String(row.stream_seq), id: row.id } })),
      more: rows[0]?.more ?? false,
    };
  }

  /** What the submission has sent, or has waiting: whether its email exists, and the endpoints it has a delivery for. */
  async sendsOf(submissionId: string): Promise<{ email: boolean; endpointIds: Set<string> }> {
    const [email] = await this.em.execute<{ n: number | string }[]>('select count(*) as n from outbox_emails where submission_id = ?', [submissionId]);
    const deliveries = await this.em.execute<{ endpoint_id: string }[]>('select endpoint_id from webhook_deliveries where submission_id = ?', [submissionId]);
    return { email: Number(email?.n ?? 0) > 0, endpointIds: new Set(deliveries.map((d) => d.endpoint_id)) };
  }

  /** The form's submissions matching `filter`, newest first, below `before` (an id) when given: a page of a list. */
  newestFirstMatching(formId: string, filter: SubmissionFilter, before: string | undefined, bounds: ReadBounds): Promise<Bounded<SubmissionReading>> {
    return this.#matching(formId, filter, 'desc', before, bounds);
  }

  /** The form's submissions matching `filter`, oldest first, after `after` (an id) when given: an export's next batch. */
  oldestFirstMatching(formId: string, filter: SubmissionFilter, after: string | undefined, bounds: ReadBounds): Promise<Bounded<SubmissionReading>> {
    return this.#matching(formId, filter, 'asc', after, bounds);
  }

  /**
   * Matching submissions in id order, past `cursor` (an id) in that order when given, within
   * `bounds`: the database counts the values' stored size and sends only the rows that fit, and
   * whether more follow.
   */
  async #matching(
    formId: string,
    filter: SubmissionFilter,
    order: 'asc' | 'desc',
    cursor: string | undefined,
    bounds: ReadBounds,
  ): Promise<Bounded<SubmissionReading>> {
    const where = whereOf(formId, filter);
    const past = cursor ? ` and id ${order === 'asc' ? '>' : '<'} ?` : '';
    const firsts = `select id, octet_length(data::text) as bytes from submissions where ${where.sql}${past} order by id ${order} limit ?`;
    const rows = await this.em.execute<(SubmissionRow & { more: boolean })[]>(boundedRead('submissions', COLUMNS_OF_T, firsts, order), [
      bounds.rows,
      bounds.bytes,
      ...where.params,
      ...(cursor ? [cursor] : []),
      bounds.rows + 1,
    ]);
    return { rows: rows.map(readingOf), more: rows[0]?.more ?? false };
  }

  /** The form's real submissions made in [since, until), oldest first, at most `limit`: their ids and times (what a recover counts). */
  async realMadeIn(formId: string, since: Date, until: Date, limit: number): Promise<{ id: string; createdAt: Date }[]> {
    const rows = await this.em.execute<{ id: string; created_at: Date | string }[]>(
      "select id, created_at from submissions where form_id = ? and status = 'ok' and created_at >= ? and created_at < ? order by created_at, id limit ?",
      [formId, since, until, limit],
    );
    return rows.map((row) => ({ id: row.id, createdAt: new Date(row.created_at) }));
  }

  /** Those of `ids` that are the form's real submissions, as their rows hold them (a recover's payloads). */
  async realOfIds(formId: string, ids: readonly string[]): Promise<SubmissionReading[]> {
    if (ids.length === 0) return [];
    const rows = await this.em.execute<SubmissionRow[]>(
      `select ${COLUMNS} from submissions where form_id = ? and status = 'ok' and id in (${ids.map(() => '?').join(', ')})`,
      [formId, ...ids],
    );
    return rows.map(readingOf);
  }

  /** The real (not spam) submissions a form holds: what `max_submissions` is held against. */
  async countOk(formId: string): Promise<number> {
    const [row] = await this.em.execute<{ n: number | string }[]>("select count(*) as n from submissions where form_id = ? and status = 'ok'", [formId]);
    return Number(row?.n ?? 0);
  }

  /** How many real submissions each form holds and when the last arrived; forms with none are left out. */
  async statsOf(formIds: string[]): Promise<Map<string, SubmissionStats>> {
    if (formIds.length === 0) return new Map();
    const rows = await this.em.execute<{ form_id: string; n: number | string; last_at: Date | string | null }[]>(
      "select form_id, count(*) as n, max(created_at) as last_at from submissions where status = 'ok' " +
        `and form_id in (${formIds.map(() => '?').join(', ')}) group by form_id`,
      formIds,
    );
    return new Map(rows.map((r) => [r.form_id, { count: Number(r.n), lastAt: r.last_at === null ? null : new Date(r.last_at) }]));
  }

  /**
   * Writes the submission at once, in this repository's EntityManager's transaction if it has
   * one: no entity (nothing reads it back in the request). With `emailsOf`, the emails it sends
   * (built for its id and time) are written with it: one email by the same statement (one round
   * trip, which commits by itself outside a transaction), several in one transaction; either way
   * the emails exist if and only if the submission does.
   */
  async writeNow(
    submission: NewSubmission,
    now: Date,
    emailsOf?: (record: { id: string; createdAt: Date }) => NewEmail[],
  ): Promise<{ id: string; createdAt: Date }> {
    const record = { id: newId('sub'), createdAt: now };
    const row = [
      record.id,
      submission.formId,
      JSON.stringify(submission.data),
      submission.source,
      submission.apiKeyId,
      submission.status,
      submission.spamReason,
      submission.spamScore,
      submission.spamReasons === null ? null : JSON.stringify(submission.spamReasons),
      now,
    ];
    // Due by the wall clock, which the sender polls by, as every queued email is.
    const emailRows = (emailsOf?.(record) ?? []).map((email) => outboxEmailRow({ ...email, submissionId: record.id }, new Date()));
    const group = groupCommitOf(this.em, 'submissions', () => submissionWrites(this.em.fork()));
    if (group) await group.add({ row, emailRows });
    else if (emailRows.length === 0) await runPrepared(this.em, WRITE_SUBMISSION, row);
    else if (emailRows.length === 1) await runPrepared(this.em, WRITE_NOTIFYING_SUBMISSION, [...row, ...emailRows[0]!]);
    else {
      // Several emails (several addresses, an auto-reply): the submission and all of them in one transaction.
      await this.em.transactional(async (tx) => {
        await runPrepared(tx, WRITE_SUBMISSION, row);
        await tx.execute(`${INSERT_OUTBOX_EMAIL} values ${placeholders(emailRows)}`, emailRows.flat());
      });
    }
    return record;
  }

  /**
   * Deletes those of `ids` that are the form's; their emails and webhook deliveries go with them
   * (the foreign keys cascade). Answers what was deleted.
   */
  async deleteInForm(formId: string, ids: string[]): Promise<DeletedSubmission[]> {
    const wellFormed = [...new Set(ids)].filter((id) => isId('sub', id));
    if (wellFormed.length === 0) return [];
    const rows = await this.em.execute<DeletedRow[]>(
      `delete from submissions where form_id = ? and id in (${wellFormed.map(() => '?').join(', ')}) returning id, status, created_at`,
      [formId, ...wellFormed],
    );
    return rows.map(deletedOf);
  }

  /**
   * Deletes up to `limit` of the form's submissions, those that arrived before `before` when given:
   * one short batch, so no lock is held long. A row another transaction holds (a change of its
   * status) is waited for, not skipped: what was asked to go goes. Answers what was deleted.
   */
  async deleteBatch(formId: string, before: Date | null, limit: number): Promise<DeletedSubmission[]> {
    const rows = await this.em.execute<DeletedRow[]>(
      'delete from submissions where id in (select id from submissions where form_id = ?' +
        (before ? ' and created_at < ?' : '') +
        ' limit ? for update) returning id, status, created_at',
      before ? [formId, before, limit] : [formId, limit],
    );
    return rows.map(deletedOf);
  }

  /** Cancels what the submission has not sent yet: its email waiting in the outbox, its deliveries waiting to be attempted. */
  async cancelPendingSends(submissionId: string): Promise<void> {
    await this.em.execute("delete from outbox_emails where submission_id = ? and status = 'pending'", [submissionId]);
    await this.em.execute("delete from webhook_deliveries where submission_id = ? and status = 'pending'", [submissionId]);
  }

  /**
   * Takes the retention sweep's advisory lock for this transaction, if no other replica's
   * transaction holds it: false means another replica is sweeping.
   */
  async takeSweepLock(): Promise<boolean> {
    const [row] = await this.em.execute<{ held: boolean }[]>('select pg_try_advisory_xact_lock(?) as held', [SWEEP_LOCK]);
    return row?.held === true;
  }

  /**
   * One batch of the retention sweep: up to `limit` submissions deleted, those older than their
   * form's `retention_days` first, then spam older than `spamBefore`. Rows another transaction
   * holds are skipped; the next batch finds them.
   */
  async deleteExpiredBatch(now: Date, spamBefore: Date, limit: number): Promise<ExpiredBatch> {
    const byRetention = await this.em.execute<{ form_id: string }[]>(
      'delete from submissions where id in (' +
        'select s.id from forms f join submissions s on s.form_id = f.id ' +
        "where f.retention_days is not null and s.created_at < ?::timestamptz - f.retention_days * interval '1 day' " +
        'limit ? for update of s skip locked) returning form_id',
      [now, limit],
    );
    const room = limit - byRetention.length;
    const spam =
      room === 0
        ? []
        : await this.em.execute<{ form_id: string }[]>(
            'delete from submissions where id in (' +
              "select id from submissions where status = 'spam' and created_at < ? limit ? for update skip locked) returning form_id",
            [spamBefore, room],
          );
    const byForm = new Map<string, { retention: number; spam: number }>();
    for (const [rows, kind] of [
      [byRetention, 'retention'],
      [spam, 'spam'],
    ] as const) {
      for (const row of rows) {
        const counts = byForm.get(row.form_id) ?? { retention: 0, spam: 0 };
        counts[kind] += 1;
        byForm.set(row.form_id, counts);
      }
    }
    return { deleted: byRetention.length + spam.length, byForm };
  }
}
