import { BaseRepository } from './base-repository.ts';
import type { SubmissionSource } from '../constants.ts';
import type { ISubmission } from '../entities/submission.ts';
import { isId, newId } from '../ids.ts';

export interface NewSubmission {
  formId: string;
  /** The values as validated: stored as the JSON text they make, so they read back unchanged. */
  data: Record<string, unknown>;
  source: SubmissionSource;
  /** The key that authenticated a server-side submission. */
  apiKeyId: string | null;
}

export class SubmissionRepository extends BaseRepository<ISubmission> {
  /** The form's submission with this id; null for another form's submission, as for a missing one. */
  findInForm(formId: string, submissionId: string): Promise<ISubmission | null> {
    return isId('sub', submissionId) ? this.findOne({ id: submissionId, form: formId }) : Promise.resolve(null);
  }

  /** The form's submissions after `after` (an id), oldest first: a stream read from a position. */
  after(formId: string, after: string, limit: number): Promise<ISubmission[]> {
    return this.find({ form: formId, id: { $gt: after } }, { orderBy: { id: 'asc' }, limit });
  }

  /** The id of the form's newest submission, or null: where a stream read from now starts. */
  async newestId(formId: string): Promise<string | null> {
    const [newest] = await this.find({ form: formId }, { orderBy: { id: 'desc' }, limit: 1, fields: ['id'] });
    return newest?.id ?? null;
  }

  /**
   * Writes the submission at once, in this repository's EntityManager's transaction: one
   * statement, no entity (nothing reads it back in the request). Answers its id and time, so what
   * is written with it (its notification) can name them.
   */
  async writeNow(submission: NewSubmission, now = new Date()): Promise<{ id: string; createdAt: Date }> {
    const id = newId('sub');
    await this.em.execute(
      'insert into submissions (id, form_id, data, source, api_key_id, created_at) values (?, ?, ?, ?, ?, ?)',
      [id, submission.formId, JSON.stringify(submission.data), submission.source, submission.apiKeyId, now],
    );
    return { id, createdAt: now };
  }
}
