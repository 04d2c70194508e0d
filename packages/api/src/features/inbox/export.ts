import { type ExportFormat, type StoredField, Submission, type SubmissionFilter, type SubmissionReading } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { stringify } from 'csv-stringify/sync';
import { setImmediate } from 'node:timers/promises';

/** Rows read per statement: the memory an export holds at once, whatever the form's size. */
export const EXPORT_BATCH = 500;

const BOM = '\uFEFF';
/** The columns before the form's own fields. */
const LEADING_COLUMNS = ['id', 'created_at', 'via'];

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

function csvRow(fields: StoredField[], s: SubmissionReading): unknown[] {
  return [s.id, s.createdAt.toISOString(), s.source, ...fields.map((field) => s.data[field.name] ?? '')];
}

function jsonLine(s: SubmissionReading): string {
  return `${JSON.stringify({ id: s.id, created_at: s.createdAt.toISOString(), via: s.source, status: s.status, values: s.data })}\n`;
}

/**
 * A form's submissions matching `filter`, oldest first, as the text of a CSV or JSON Lines file,
 * chunk by chunk: the header at once, then one chunk per batch of rows read by keyset (never an
 * offset, never all at once), so memory stays flat and the first bytes leave before the last row
 * is read. CSV has one column per field of the form's schema, after `id`, `created_at` and `via`;
 * JSON Lines carries every value a submission holds.
 */
export async function* exportSubmissions(
  em: EntityManager,
  form: { id: string; schema: StoredField[] },
  filter: SubmissionFilter,
  format: ExportFormat,
  options: { bom: boolean },
): AsyncGenerator<string> {
  const read = (after: string | undefined) => em.getRepository(Submission).oldestFirstMatching(form.id, filter, after, EXPORT_BATCH);
  // The first batch is read before anything is yielded: a failure there is still an error the
  // route can answer, before the first byte of the file.
  let batch = await read(undefined);
  const start = options.bom ? BOM : '';
  if (format === 'csv') yield start + stringify([[...LEADING_COLUMNS, ...form.schema.map((f) => f.name)]], CSV_OPTIONS);
  else if (start) yield start;
  while (batch.length > 0) {
    yield format === 'csv' ? stringify(batch.map((s) => csvRow(form.schema, s)), CSV_OPTIONS) : batch.map(jsonLine).join('');
    if (batch.length < EXPORT_BATCH) return;
    // The embedded database answers without a turn of the event loop: without this, a large export
    // would hold the process until the socket pushed back, and every other request would wait.
    await setImmediate();
    batch = await read(batch[batch.length - 1]!.id);
  }
}
