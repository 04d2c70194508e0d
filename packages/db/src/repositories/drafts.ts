import type { IDraft } from '../entities/draft.ts';
import { BaseRepository, type Bounded, type ReadBounds } from './base-repository.ts';

/** A draft as its page and its form's members see it. */
export interface DraftReading {
  id: string;
  formId: string;
  data: Record<string, string | boolean>;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

interface DraftRow {
  id: string;
  form_id: string;
  data: Record<string, string | boolean> | string;
  created_at: Date | string;
  updated_at: Date | string;
  expires_at: Date | string;
}

const COLUMNS = 'id, form_id, data, created_at, updated_at, expires_at';
// What a raw statement answers is the driver's: json and timestamps may come back parsed or as text.
const reading = (row: DraftRow): DraftReading => ({
  id: row.id,
  formId: row.form_id,
  data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
  expiresAt: new Date(row.expires_at),
});

export class DraftRepository extends BaseRepository<IDraft> {
  /** A page of the form's drafts, newest first, bounded in rows and bytes: what its members see. */
  ofForm(formId: string, before: string | undefined, bounds: ReadBounds): Promise<Bounded<IDraft>> {
    return this.newestFirstWithin('form_id', formId, before, bounds, 'octet_length(data::text)');
  }

  async start(draft: { id: string; formId: string; tokenHash: string; data: Record<string, string | boolean>; origin: string; at: Date; expiresAt: Date }) {
    const [row] = await this.em.execute<DraftRow[]>(
      `insert into drafts (id, form_id, token_hash, data, origin, created_at, updated_at, expires_at) values (?, ?, ?, ?, ?, ?, ?, ?) returning ${COLUMNS}`,
      [draft.id, draft.formId, draft.tokenHash, JSON.stringify(draft.data), draft.origin, draft.at, draft.at, draft.expiresAt],
    );
    return reading(row!);
  }

  /** The form's draft with this token, unless its lifetime has ended: a token of another form finds nothing. */
  async findLive(formId: string, tokenHash: string, now: Date): Promise<DraftReading | null> {
    const [row] = await this.em.execute<DraftRow[]>(`select ${COLUMNS} from drafts where form_id = ? and token_hash = ? and expires_at > ?`, [
      formId,
      tokenHash,
      now,
    ]);
    return row ? reading(row) : null;
  }

  /** Replaces a live draft's values, and starts its lifetime again; null when there is no such draft. */
  async save(formId: string, tokenHash: string, data: Record<string, string | boolean>, now: Date, expiresAt: Date): Promise<DraftReading | null> {
    const [row] = await this.em.execute<DraftRow[]>(
      `update drafts set data = ?, updated_at = ?, expires_at = ? where form_id = ? and token_hash = ? and expires_at > ? returning ${COLUMNS}`,
      [JSON.stringify(data), now, expiresAt, formId, tokenHash, now],
    );
    return row ? reading(row) : null;
  }

  /** Removes the form's draft with this token (sent as a submission, or discarded): whether there was one. */
  async remove(formId: string, tokenHash: string): Promise<boolean> {
    const rows = await this.em.execute<unknown[]>('delete from drafts where form_id = ? and token_hash = ? returning id', [formId, tokenHash]);
    return rows.length > 0;
  }

  /** Deletes the form's drafts with these ids (members discarding them): how many there were. */
  async deleteInForm(formId: string, ids: string[]): Promise<number> {
    const rows = await this.em.execute<unknown[]>(`delete from drafts where form_id = ? and id in (${ids.map(() => '?').join(', ')}) returning id`, [
      formId,
      ...ids,
    ]);
    return rows.length;
  }

  /** How many live drafts each form has (a form with none is left out). */
  async countsOf(formIds: string[], now: Date): Promise<Map<string, number>> {
    if (formIds.length === 0) return new Map();
    const rows = await this.em.execute<{ form_id: string; n: number | string }[]>(
      `select form_id, count(*) as n from drafts where expires_at > ? and form_id in (${formIds.map(() => '?').join(', ')}) group by form_id`,
      [now, ...formIds],
    );
    return new Map(rows.map((r) => [r.form_id, Number(r.n)]));
  }

  /** Deletes up to `limit` drafts whose lifetime has ended: how many. */
  async sweepExpired(now: Date, limit = 500): Promise<number> {
    const rows = await this.em.execute<unknown[]>(
      'delete from drafts where id in (select id from drafts where expires_at <= ? order by expires_at limit ? for update skip locked) returning id',
      [now, limit],
    );
    return rows.length;
  }
}
