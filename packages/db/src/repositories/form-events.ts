import { BaseRepository } from './base-repository.ts';
import type { IFormEvent } from '../entities/form-event.ts';

/** An event as it is recorded. */
export interface RecordedEvent {
  id: string;
  type: string;
  submissionId: string | null;
  /** The body exactly as it is signed and sent. */
  payload: string;
  createdAt: Date;
}

/** Rows one insert writes at most (each takes 6 parameters, PostgreSQL allows 65,535). */
const ROWS_PER_INSERT = 1000;

export class FormEventRepository extends BaseRepository<IFormEvent> {
  /** Records the form's events, in this repository's EntityManager's transaction. */
  async record(formId: string, events: readonly RecordedEvent[]): Promise<void> {
    for (let start = 0; start < events.length; start += ROWS_PER_INSERT) {
      const rows = events.slice(start, start + ROWS_PER_INSERT);
      await this.em.execute(
        `insert into form_events (id, form_id, type, submission_id, payload, created_at) values ${rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
        rows.flatMap((e) => [e.id, formId, e.type, e.submissionId, e.payload, e.createdAt]),
      );
    }
  }

  /** The form's events of `types` made in [since, until), oldest first, at most `limit`, without their bodies (see `payloadsOf`). */
  async inRange(formId: string, types: readonly string[], since: Date, until: Date, limit: number): Promise<Omit<RecordedEvent, 'payload'>[]> {
    if (types.length === 0) return [];
    const rows = await this.em.execute<{ id: string; type: string; submission_id: string | null; created_at: Date | string }[]>(
      `select id, type, submission_id, created_at from form_events
       where form_id = ? and type in (${types.map(() => '?').join(', ')}) and created_at >= ? and created_at < ?
       order by created_at, id limit ?`,
      [formId, ...types, since, until, limit],
    );
    return rows.map((r) => ({ id: r.id, type: r.type, submissionId: r.submission_id, createdAt: new Date(r.created_at) }));
  }

  /** These events' bodies, by id. */
  async payloadsOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.em.execute<{ id: string; payload: string }[]>(
      `select id, payload from form_events where id in (${ids.map(() => '?').join(', ')})`,
      [...ids],
    );
    return new Map(rows.map((r) => [r.id, r.payload]));
  }

  /** Deletes up to `limit` events made before `before` (past what a recover reaches). Answers how many. */
  async deleteBatchBefore(before: Date, limit: number): Promise<number> {
    const rows = await this.em.execute<{ id: string }[]>(
      'delete from form_events where id in (select id from form_events where created_at < ? limit ? for update skip locked) returning id',
      [before, limit],
    );
    return rows.length;
  }
}
