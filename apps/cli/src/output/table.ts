import { inert } from './inert.ts';
import { displayWidth, type Style } from './style.ts';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** Colour for a cell, applied after padding is worked out. */
  paint?: (text: string, row: Row) => string;
}

/** Cells are one line each, and inert: newlines and tabs would break the columns, escapes the terminal. */
const oneLine = (text: string) => inert(text).replace(/[\n\t]+/g, ' ');

/** An aligned table: a bold header row, then one row per item, columns two spaces apart. */
export function renderTable<Row>(columns: Column<Row>[], rows: Row[], style: Style): string {
  const cells = rows.map((row) => columns.map((column) => oneLine(column.value(row))));
  const widths = columns.map((column, i) => Math.max(displayWidth(column.header), ...cells.map((line) => displayWidth(line[i] ?? ''))));
  const pad = (text: string, i: number) => text + ' '.repeat((widths[i] ?? 0) - displayWidth(text));
  const last = columns.length - 1;
  const header = columns.map((column, i) => style.bold(i === last ? column.header : pad(column.header, i))).join('  ');
  const body = cells.map((line, r) =>
    line
      .map((text, i) => {
        const padded = i === last ? text : pad(text, i);
        const paint = columns[i]?.paint;
        const row = rows[r] as Row;
        return paint ? paint(padded, row) : padded;
      })
      .join('  ')
      .trimEnd(),
  );
  return [header, ...body].join('\n');
}

/** One line of a record: label, value, and optionally a colour applied after the value is made inert. */
export type RecordEntry = [label: string, value: string, paint?: (text: string) => string];

/** `label  value` lines for one object, labels aligned. */
export function renderRecord(entries: RecordEntry[], style: Style): string {
  const width = Math.max(...entries.map(([label]) => displayWidth(label)));
  return entries
    .map(([label, value, paint]) => `${style.dim(label.padEnd(width))}  ${(paint ?? String)(oneLine(value))}`)
    .join('\n');
}
