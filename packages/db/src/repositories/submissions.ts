import { SqlEntityRepository } from '@mikro-orm/sql';
import type { SubmissionSource } from '../constants.ts';
import type { ISubmission } from '../entities/submission.ts';
import { newId } from '../ids.ts';

export interface NewSubmission {
  formId: string;
  /** The values as validated: stored as the JSON text they make, so they read back unchanged. */
  data: Record<string, unknown>;
  source: SubmissionSource;
  /** The key that authenticated a server-side submission. */
  apiKeyId: string | null;
}

export class SubmissionRepository extends SqlEntityRepository<ISubmission> {
  /**
   * Queues the submission on this repository's EntityManager, for the caller's flush. Its id and
   * time are set here, so what is written with it in the same flush (its notification) can name them.
   */
  add(submission: NewSubmission, now = new Date()): ISubmission {
    return this.create({
      id: newId('sub'),
      createdAt: now,
      form: submission.formId,
      data: submission.data,
      source: submission.source,
      apiKeyId: submission.apiKeyId,
    });
  }
}
