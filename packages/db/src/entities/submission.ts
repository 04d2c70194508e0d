import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { type ContentSignal, SPAM_REASONS, SUBMISSION_SOURCES, SUBMISSION_STATUSES } from '@lfk/vocabulary';
import { SubmissionRepository } from '../repositories/submissions.ts';
import { BaseEntity } from './base.ts';
import { Form } from './form.ts';

/**
 * One submission to a form. `data` is kept in a `json` column (not `jsonb`), which stores the
 * text it is given, so values come back exactly as they were accepted.
 */
export const Submission = defineEntity({
  name: 'Submission',
  tableName: 'submissions',
  repository: () => SubmissionRepository,
  extends: BaseEntity,
  properties: {
    form: () => p.manyToOne(Form).deleteRule('cascade'),
    data: p.json<Record<string, unknown>>().columnType('json'),
    source: p.enum(SUBMISSION_SOURCES),
    /** The key that authenticated a server-side submission. */
    apiKeyId: p.string().length(40).nullable(),
    status: p.enum(SUBMISSION_STATUSES).default('ok'),
    spamReason: p.enum(SPAM_REASONS).nullable(),
    /** The content filter's score (0–1) and what it read; null when the form's filter was off. */
    spamScore: p.float().nullable(),
    spamReasons: p.json<{ code: ContentSignal; message: string }[]>().nullable(),
    /**
     * Its place in the form's stream of events (`GET …/events`, `lfk listen`): the id of the
     * transaction that wrote it, or that released it from spam. A reader takes only what is below
     * every transaction still running, so it reads in commit order and a late commit is never
     * behind its cursor. Never read through the entity.
     */
    streamSeq: p.bigint().defaultRaw('((pg_current_xact_id())::text)::bigint').lazy(),
  },
  // Lists and counts read one status of a form, newest first; retention and "delete before" read by time.
  indexes: [
    { properties: ['form', 'status', 'id'] },
    { properties: ['form', 'createdAt'] },
    // The stream of a form's events, in commit order.
    {
      name: 'submissions_stream_index',
      expression: `create index "submissions_stream_index" on "submissions" ("form_id", "stream_seq", "id") where "status" = 'ok'`,
    },
    // The sweep deletes spam by age, across forms.
    {
      name: 'submissions_spam_created_at_index',
      expression: `create index "submissions_spam_created_at_index" on "submissions" ("created_at") where "status" = 'spam'`,
    },
  ],
});
export type ISubmission = InferEntity<typeof Submission>;
