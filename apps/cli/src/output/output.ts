import { inertValue } from './inert.ts';
import { colourWanted, createStyle, type Style } from './style.ts';
import { type Column, type RecordEntry, renderRecord, renderRows, renderTable } from './table.ts';
import { type Io, io } from '../terminal/io.ts';

/** Where a command's results go: JSON or tables on stdout, notes and warnings on stderr. */
export class Output {
  readonly json: boolean;
  /** Styling for stdout and for stderr, each on only if that stream is a terminal. */
  readonly style: Style;
  readonly errorStyle: Style;
  /** A person reads stdout (tables fitted and times relative), rather than a script or a file. */
  readonly forTerminal: boolean;
  /** Whether a table through a pipe starts with its column names (`--no-headers`: not). */
  readonly headers: boolean;
  /** The run's streams and environment. */
  readonly #io: Io;

  constructor(json: boolean, streams: Io = io(), { headers = true }: { headers?: boolean } = {}) {
    this.json = json;
    this.headers = headers;
    this.#io = streams;
    this.forTerminal = streams.stdout.isTTY === true;
    this.style = createStyle(colourWanted(streams.stdout, streams.env));
    this.errorStyle = createStyle(colourWanted(streams.stderr, streams.env));
  }

  /** A line of the result, on stdout. */
  line(text = ''): void {
    this.#io.stdout.write(`${text}\n`);
  }

  /** A line for the person at the terminal (progress, warnings, hints), on stderr. */
  note(text: string): void {
    this.#io.stderr.write(`${text}\n`);
  }

  /** Exactly the API's object, for scripts. */
  printJson(value: unknown): void {
    this.#io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** Rows as a table fitted to the terminal, or as tab-separated lines (under their names) for a script. */
  table<Row>(columns: Column<Row>[], rows: Row[]): void {
    if (!this.forTerminal) {
      if (rows.length > 0) this.line(renderRows(columns, rows, this.headers));
      return;
    }
    this.line(renderTable(columns, rows, this.style, this.#layout()));
  }

  /** More rows of a table already begun (a stream): no header, each batch fitted on its own. */
  rows<Row>(columns: Column<Row>[], rows: Row[]): void {
    if (!this.forTerminal) {
      this.line(renderRows(columns, rows, false));
      return;
    }
    this.line(renderTable(columns, rows, this.style, this.#layout()).split('\n').slice(1).join('\n'));
  }

  /** The terminal's width (the pty's, else COLUMNS, else 80) and now, for fitting a table. */
  #layout() {
    return { width: this.#io.stdout.columns || Number(this.#io.env.COLUMNS) || 80, now: Date.now() };
  }

  record(entries: RecordEntry[]): void {
    this.line(renderRecord(entries, this.style, this.forTerminal));
  }

  /**
   * `--json` prints the value as is; otherwise `human` renders a copy whose strings are inert, so
   * text a stranger put into a form cannot drive the terminal (see inert.ts).
   */
  result<T>(value: T, human: (view: T) => void): void {
    if (this.json) this.printJson(value);
    else human(inertValue(value));
  }
}
