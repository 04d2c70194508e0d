import { type ReadBounds, type StoredField, Submission, type SubmissionFilter, type SubmissionReading } from '@lfk/db';
import { type ExportFormat, undeclaredNames, type UnknownFieldPolicy } from '@lfk/vocabulary';
import type { Services } from '../../context.ts';
import { ConcurrencyLimit } from '../../infrastructure/concurrency-limit.ts';
import type { EntityManager } from '@mikro-orm/sql';
import { stringify } from 'csv-stringify/sync';
import { setImmediate } from 'node:timers/promises';
import type { z } from 'zod';
import { linkedFilesOf } from '../files/linked-files.ts';
import type { linkedFile } from '../files/schemas.ts';

/**
 * What one statement of an export reads at most: 500 rows, and no more rows once their values
 * reach 128 KiB (a submission holds up to 64 KiB). What an export holds at once, whatever the form.
 */
export const EXPORT_BATCH: ReadBounds = { rows: 500, bytes: 128 * 1024 };

const BOM = '\uFEFF';
/** The columns before the form's own fields. */
const LEADING_COLUMNS = ['id', 'created_at', 'via'];
/** The last column of a form that keeps the fields it does not name: them all, one `name: value` per line. */
const KEPT_COLUMN = 'other_fields';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

/**
 * The CSV options every batch shares: RFC 4180 quoting (a value with a comma, a quote, or any line
 * break is quoted), CRLF between records as spreadsheets expect, and `escape_formulas`, which prefixes a
 * cell starting with `=`, `+`, `-`, `@`, tab or CR with `'` so no spreadsheet runs it as a formula.
 */
const CSV_OPTIONS = {
  record_delimiter: 'windows',
  // The library quotes a value holding the record delimiter (CRLF), not a lone LF or CR, which a
  // spreadsheet would still read as the end of a row.
  quoted_match: /[\r\n]/,
  escape_formulas: true,
  cast: { boolean: (value: boolean) => (value ? 'true' : 'false') },
} as const;

type Files = z.input<typeof linkedFile>[];

/** A file field's cell: its files' signed links, one per line (a quarantined file's name, marked). */
const fileCell = (files: Files, field: string) =>
  files
    .filter((file) => file.field === field)
    .map((file) => file.url ?? `${file.name} (quarantined)`)
    .join('\n');

/** The cell of the fields the form does not name: each `name: value`, one per line. */
const keptCell = (fields: StoredField[], s: SubmissionReading) =>
  undeclaredNames(fields, s.data)
    .map((name) => `${name}: ${String(s.data[name])}`)
    .join('\n');

function csvRow(form: ExportedForm, s: SubmissionReading, files: Files): unknown[] {
  const own = form.schema.map((field) => (field.type === 'file' ? fileCell(files, field.name) : (s.data[field.name] ?? '')));
  return [s.id, s.createdAt.toISOString(), s.source, ...own, ...(form.unknownFields === 'keep' ? [keptCell(form.schema, s)] : [])];
}

/** What an export reads of its form. */
interface ExportedForm {
  id: string;
  schema: StoredField[];
  unknownFields: UnknownFieldPolicy;
  workspace?: { id: string } | null | undefined;
}

function jsonLine(s: SubmissionReading, files: Files): string {
  return `${JSON.stringify({ id: s.id, created_at: s.createdAt.toISOString(), via: s.source, status: s.status, values: s.data, files })}\n`;
}

/** Exports one person may stream at once from one process, unless `LFK_EXPORTS_PER_PERSON` says otherwise. */
export const DEFAULT_EXPORTS_PER_PERSON = 2;

/**
 * How long a person told to wait for an export is asked to wait: how long one takes is not known
 * in advance (a few seconds for most forms), and a place is free as soon as one of theirs ends.
 */
const EXPORT_RETRY_AFTER_SECONDS = 10;

/** The exports streaming in this process: at most `perPerson` each (`LFK_EXPORTS_PER_PERSON`), then 429 `rate_limited`. */
export function exportLimit(perPerson: number): ConcurrencyLimit {
  return new ConcurrencyLimit(perPerson, {
    message: `You are already exporting ${perPerson === 1 ? 'a file' : `${perPerson} files`} at once; wait for one to finish, then try again.`,
    retryAfterSeconds: EXPORT_RETRY_AFTER_SECONDS,
  });
}

/** The text of one batch, and where the next one starts. */
interface Chunk {
  text: string;
  last: string | undefined;
  more: boolean;
}

/** Who exports, and what they share: the place they hold while it streams, and what is counted. */
export interface Exporter {
  em: EntityManager;
  services: Pick<Services, 'exports' | 'metrics' | 'files' | 'now'>;
  /** The person exporting (their user id): at most `LFK_EXPORTS_PER_PERSON` exports each at once. */
  person: string;
}

/**
 * A form's submissions matching `filter`, oldest first, as the text of a CSV or JSON Lines file,
 * chunk by chunk: one chunk per batch of rows read by keyset (never an offset, never all at once),
 * each batch at most `EXPORT_BATCH` rows and bytes of values, so what the export holds stays about
 * one batch whatever the form's size and its values' size, and the first bytes leave before the
 * last row is read. The next batch is read only when the reader has taken the last one (the
 * caller's stream asks for it). CSV has one column per field of the form's schema, after `id`,
 * `created_at` and `via` (a file field's cell: its files' signed links), then, when the form keeps
 * the fields it does not name, `other_fields` holding them; JSON Lines carries every
 * value a submission holds, and its files with their links.
 *
 * The exporter holds one of their places from the first step to the end, whatever the end: read
 * to the last row, failed, or returned because the reader went away.
 */
export async function* exportSubmissions(
  exporter: Exporter,
  form: ExportedForm,
  filter: SubmissionFilter,
  format: ExportFormat,
  options: { bom: boolean },
): AsyncGenerator<string> {
  const giveBack = exporter.services.exports.take(exporter.person);
  const { metrics } = exporter.services;
  metrics.exportsStreaming(1);
  try {
    // Read and written out by a function of its own: the rows are not kept while their text waits for the reader.
    const next = async (after: string | undefined): Promise<Chunk> => {
      const { rows, more } = await exporter.em.getRepository(Submission).oldestFirstMatching(form.id, filter, after, EXPORT_BATCH);
      metrics.exportRowsRead(rows.length);
      const filesOf = await linkedFilesOf(
        exporter.em,
        exporter.services,
        form.workspace?.id ?? null,
        rows.map((s) => s.id),
      );
      const text =
        rows.length === 0
          ? ''
          : format === 'csv'
            ? stringify(
                rows.map((s) => csvRow(form, s, filesOf(s.id))),
                CSV_OPTIONS,
              )
            : rows.map((s) => jsonLine(s, filesOf(s.id))).join('');
      return { text, last: rows.at(-1)?.id, more };
    };
    // The first batch is read before anything is yielded: a failure there is still an error the
    // route can answer, before the first byte of the file.
    let chunk = await next(undefined);
    const header =
      format === 'csv'
        ? stringify([[...LEADING_COLUMNS, ...form.schema.map((f) => f.name), ...(form.unknownFields === 'keep' ? [KEPT_COLUMN] : [])]], CSV_OPTIONS)
        : '';
    const first = (options.bom ? BOM : '') + header + chunk.text;
    if (first) yield first;
    while (chunk.more) {
      // The embedded database answers without a turn of the event loop: without this, a large export
      // would hold the process until the socket pushed back, and every other request would wait.
      await setImmediate();
      chunk = await next(chunk.last);
      if (chunk.text) yield chunk.text;
    }
  } finally {
    metrics.exportsStreaming(-1);
    giveBack();
  }
}
