import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { SUBMISSION_SOURCES } from '../constants.ts';
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
  },
  indexes: [{ properties: ['form', 'id'] }],
});
export type ISubmission = InferEntity<typeof Submission>;
