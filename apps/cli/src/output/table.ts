import { displayWidth, type Style } from './style.ts';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** Colour for a cell, applied after padding is worked out. */
  paint?: (text: string, row: Row) => string;
}

/** Cells are one line each: newlines and tabs in user text would break the columns. */
const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, ' ');

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

/** `label  value` lines for one object, labels aligned. */
export function renderRecord(entries: [string, string][], style: Style): string {
  const width = Math.max(...entries.map(([label]) => displayWidth(label)));
  return entries.map(([label, value]) => `${style.dim(label.padEnd(width))}  ${oneLine(value)}`).join('\n');
}
