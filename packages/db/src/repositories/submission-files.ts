import type { FileStatus } from '@lfk/vocabulary';
import type { ISubmissionFile } from '../entities/submission-file.ts';
import { isId } from '../ids.ts';
import { BaseRepository } from './base-repository.ts';

/** A file as the API describes it (its object key is never shown). */
export interface FileReading {
  id: string;
  submissionId: string;
  field: string;
  name: string;
  size: number;
  contentType: string;
  sha256: string;
  status: FileStatus;
  malwareSignature: string | null;
}

/** A file to serve: what is said of it, where its bytes are, and whose it is. */
export interface StoredFileReading extends FileReading {
  objectKey: string;
  formId: string;
  /** The workspace of its form (null for an unclaimed form's). */
  workspaceId: string | null;
}

/** How many files, and their bytes together. */
export interface FileTotals {
  files: number;
  bytes: number;
}

/** A file being recorded with its submission (its id made by the caller, so the submission's values can name it). */
export type NewSubmissionFile = Omit<FileReading, 'submissionId'> & { objectKey: string };

interface FileRow {
  id: string;
  submission_id: string;
  field: string;
  name: string;
  size: number | string;
  content_type: string;
  sha256: string;
  status: FileStatus;
  malware_signature: string | null;
}

const COLUMNS = 'f.id, f.submission_id, f.field, f.name, f.size, f.content_type, f.sha256, f.status, f.malware_signature';

const readingOf = (row: FileRow): FileReading => ({
  id: row.id,
  submissionId: row.submission_id,
  field: row.field,
  name: row.name,
  size: Number(row.size),
  contentType: row.content_type,
  sha256: row.sha256,
  status: row.status,
  malwareSignature: row.malware_signature,
});

export class SubmissionFileRepository extends BaseRepository<ISubmissionFile> {
  /** Records the submission's files, in the order given, in this EntityManager's transaction. */
  async record(submissionId: string, files: readonly NewSubmissionFile[], now: Date): Promise<void> {
    if (files.length === 0) return;
    const values = files.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    await this.em.execute(
      'insert into submission_files (id, submission_id, field, position, name, size, content_type, sha256, status, malware_signature, object_key, ' +
        `created_at) values ${values}`,
      files.flatMap((f, position) => [
        f.id,
        submissionId,
        f.field,
        position,
        f.name,
        f.size,
        f.contentType,
        f.sha256,
        f.status,
        f.malwareSignature,
        f.objectKey,
        now,
      ]),
    );
  }

  /** The files of each of these submissions, in the order they were sent; submissions without files are left out. */
  async ofSubmissions(submissionIds: string[]): Promise<Map<string, FileReading[]>> {
    const byId = new Map<string, FileReading[]>();
    if (submissionIds.length === 0) return byId;
    const rows = await this.em.execute<FileRow[]>(
      `select ${COLUMNS} from submission_files f where f.submission_id in (${submissionIds.map(() => '?').join(', ')}) order by f.submission_id, f.position`,
      submissionIds,
    );
    for (const row of rows) {
      const files = byId.get(row.submission_id) ?? [];
      files.push(readingOf(row));
      byId.set(row.submission_id, files);
    }
    return byId;
  }

  /** The file `fileId` of the form's submission `submissionId`; null when any of the three does not match. */
  async findInSubmission(formId: string, submissionId: string, fileId: string): Promise<StoredFileReading | null> {
    if (!isId('file', fileId) || !isId('sub', submissionId)) return null;
    return this.#stored('f.id = ? and s.id = ? and s.form_id = ?', [fileId, submissionId, formId]);
  }

  /** The file `fileId`, wherever it is; null when there is none (its submission was deleted, say). */
  async findStored(fileId: string): Promise<StoredFileReading | null> {
    return isId('file', fileId) ? this.#stored('f.id = ?', [fileId]) : null;
  }

  /** Those of `objectKeys` that a file row names: what the orphan sweep must leave alone. */
  async objectKeysNamed(objectKeys: string[]): Promise<Set<string>> {
    if (objectKeys.length === 0) return new Set();
    const rows = await this.em.execute<{ object_key: string }[]>(
      `select object_key from submission_files where object_key in (${objectKeys.map(() => '?').join(', ')})`,
      objectKeys,
    );
    return new Set(rows.map((row) => row.object_key));
  }

  /** How many files these submissions hold and their bytes: what an audit event says of a deletion. */
  totalsOf(submissionIds: string[]): Promise<FileTotals> {
    if (submissionIds.length === 0) return Promise.resolve({ files: 0, bytes: 0 });
    return this.#totals(`submission_id in (${submissionIds.map(() => '?').join(', ')})`, submissionIds);
  }

  /** The same, of those of `submissionIds` that are the form's. */
  totalsInForm(formId: string, submissionIds: string[]): Promise<FileTotals> {
    const wellFormed = submissionIds.filter((id) => isId('sub', id));
    if (wellFormed.length === 0) return Promise.resolve({ files: 0, bytes: 0 });
    return this.#totals(`submission_id in (select id from submissions where form_id = ? and id in (${wellFormed.map(() => '?').join(', ')}))`, [
      formId,
      ...wellFormed,
    ]);
  }

  /** The same, of the form's submissions that arrived before `before`. */
  totalsBefore(formId: string, before: Date): Promise<FileTotals> {
    return this.#totals('submission_id in (select id from submissions where form_id = ? and created_at < ?)', [formId, before]);
  }

  async #totals(where: string, params: unknown[]): Promise<FileTotals> {
    const [row] = await this.em.execute<{ n: number | string; bytes: number | string | null }[]>(
      `select count(*) as n, sum(size) as bytes from submission_files where ${where}`,
      params,
    );
    return { files: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  async #stored(where: string, params: unknown[]): Promise<StoredFileReading | null> {
    const [row] = await this.em.execute<(FileRow & { object_key: string; form_id: string; workspace_id: string | null })[]>(
      `select ${COLUMNS}, f.object_key, s.form_id, fo.workspace_id from submission_files f ` +
        'join submissions s on s.id = f.submission_id join forms fo on fo.id = s.form_id where ' +
        where,
      params,
    );
    return row ? { ...readingOf(row), objectKey: row.object_key, formId: row.form_id, workspaceId: row.workspace_id } : null;
  }
}
