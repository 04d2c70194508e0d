import { inert } from './inert.ts';
import { relativeTime } from './relative-time.ts';
import { displayWidth, type Style } from './style.ts';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** Colour for a cell, applied after its width is worked out (with the styling the table is drawn in). */
  paint?: (text: string, row: Row, style: Style) => string;
  /** Free text (names, values) that may be cut short to fit the terminal; ids and codes never are. */
  shrink?: boolean;
  /** An ISO timestamp: shown to people as "2 minutes ago", to scripts as it is. */
  time?: boolean;
  /** Left out (the rightmost such first) when the terminal is too narrow for the table even cut. */
  optional?: boolean;
}

export interface Layout {
  /** The terminal's width in columns. */
  width: number;
  now: number;
}

/** Cells are one line each, and inert: newlines and tabs would break the columns, escapes the terminal. */
const oneLine = (text: string) => inert(text).replace(/[\n\t]+/g, ' ');

/** The narrowest a shrinking column gets before the table gives up fitting. */
const MIN_SHRUNK = 8;
const GAP = 2;

/** `text` cut to `width` terminal columns, with an ellipsis when anything was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  for (const char of text) {
    if (displayWidth(`${out}${char}`) > width - 1) break;
    out += char;
  }
  return `${out}…`;
}

/** How wide each column may be so the table fits `width`: free-text columns give way first, widest first. */
function fitWidths<Row>(columns: Column<Row>[], natural: number[], width: number): { widths: number[]; fits: boolean } {
  const widths = [...natural];
  let excess = widths.reduce((sum, w) => sum + w, 0) + GAP * (columns.length - 1) - width;
  while (excess > 0) {
    let widest = -1;
    for (let i = 0; i < columns.length; i++) {
      const floor = Math.max(MIN_SHRUNK, displayWidth(columns[i]!.header));
      if (columns[i]!.shrink && widths[i]! > floor && (widest === -1 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest === -1) break;
    const floor = Math.max(MIN_SHRUNK, displayWidth(columns[widest]!.header));
    const cut = Math.min(excess, widths[widest]! - floor);
    widths[widest]! -= cut;
    excess -= cut;
  }
  return { widths, fits: excess <= 0 };
}

/**
 * A table for a person at a terminal: a bold header, columns two spaces apart, fitted to the
 * terminal's width (free text cut with an ellipsis), times relative to now.
 */
export function renderTable<Row>(allColumns: Column<Row>[], rows: Row[], style: Style, layout: Layout): string {
  const shown = (column: Column<Row>, row: Row) => {
    const text = oneLine(column.value(row));
    return column.time ? relativeTime(text, layout.now) : text;
  };
  let columns = allColumns;
  let natural: string[][];
  let widths: number[];
  for (;;) {
    natural = rows.map((row) => columns.map((column) => shown(column, row)));
    const cells = natural;
    const fitted = fitWidths(
      columns,
      columns.map((column, i) => Math.max(displayWidth(column.header), ...cells.map((line) => displayWidth(line[i] ?? '')))),
      layout.width,
    );
    widths = fitted.widths;
    const drop = columns.findLastIndex((column) => column.optional);
    // Still too wide once cut: leave out an optional column; with none left, the terminal wraps.
    if (fitted.fits || drop === -1) break;
    columns = columns.filter((_, i) => i !== drop);
  }
  const pad = (text: string, i: number) => text + ' '.repeat(Math.max(0, (widths[i] ?? 0) - displayWidth(text)));
  const last = columns.length - 1;
  const header = columns.map((column, i) => style.bold(i === last ? column.header : pad(column.header, i))).join('  ');
  const body = natural.map((line, r) =>
    line
      .map((text, i) => {
        const cut = truncate(text, widths[i] ?? 0);
        const padded = i === last ? cut : pad(cut, i);
        const paint = columns[i]?.paint;
        return paint ? paint(padded, rows[r] as Row, style) : padded;
      })
      .join('  ')
      .trimEnd(),
  );
  return [header, ...body].join('\n');
}

/**
 * For a pipe or a file (stdout not a terminal): one tab-separated line per row, nothing cut or
 * reworded, under a line of the column names when `header` (a reader, or an agent, must know what
 * each column is; `--no-headers` leaves it out for `cut` and friends).
 */
export function renderRows<Row>(columns: Column<Row>[], rows: Row[], header: boolean): string {
  const lines = rows.map((row) => columns.map((column) => oneLine(column.value(row))).join('\t'));
  return (header ? [columns.map((column) => column.header).join('\t'), ...lines] : lines).join('\n');
}

/** One line of a record: label, value, and optionally a colour applied after the value is made inert. */
export type RecordEntry = [label: string, value: string, paint?: (text: string) => string];

/** `label  value` lines for one object, labels aligned; for scripts, `label<TAB>value`. */
export function renderRecord(entries: RecordEntry[], style: Style, forTerminal: boolean): string {
  if (!forTerminal) return entries.map(([label, value]) => `${label}\t${oneLine(value)}`).join('\n');
  const width = Math.max(...entries.map(([label]) => displayWidth(label)));
  return entries.map(([label, value, paint]) => `${style.dim(label.padEnd(width))}  ${(paint ?? String)(oneLine(value))}`).join('\n');
}
