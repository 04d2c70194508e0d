import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { FILE_NAME_MAX, FILE_STATUSES } from '@lfk/vocabulary';
import { SubmissionFileRepository } from '../repositories/submission-files.ts';
import { BaseEntity } from './base.ts';
import { Submission } from './submission.ts';

/**
 * A file sent with a submission: what is known of it, and the opaque key its bytes are stored
 * under (object storage holds nothing else). Deleting the row, by any path — the submission, its
 * form, its workspace, retention — queues the object's deletion (a trigger, see the migration).
 */
export const SubmissionFile = defineEntity({
  name: 'SubmissionFile',
  tableName: 'submission_files',
  repository: () => SubmissionFileRepository,
  extends: BaseEntity,
  properties: {
    submission: () => p.manyToOne(Submission).deleteRule('cascade'),
    /** The schema field it was sent in. */
    field: p.string().length(64),
    /** Its place among the submission's files, in the order they were sent. */
    position: p.integer(),
    /** The name it was sent with, cleaned of paths and control characters: for display only. */
    name: p.string().length(FILE_NAME_MAX),
    size: p.integer(),
    /** The type its bytes show (sniffed), not the one it was sent with. */
    contentType: p.string().length(255),
    sha256: p.string().length(64),
    status: p.enum(FILE_STATUSES).default('stored'),
    /** What the malware scanner found, for a quarantined file. */
    malwareSignature: p.string().length(200).nullable(),
    objectKey: p.string().length(64).unique(),
  },
  indexes: [{ properties: ['submission', 'position'] }],
});
export type ISubmissionFile = InferEntity<typeof SubmissionFile>;
