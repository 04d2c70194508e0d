import type { Key, ReactNode } from 'react';

export interface Column<Row> {
  /** The column's header, and the label each cell carries when a phone shows the rows as cards. */
  label: string;
  /** A header heard but not seen (a column of buttons or links, which name themselves). */
  labelHidden?: boolean;
  /**
   * The cell holds text someone typed (a name, an address), which may be one long word: it wraps
   * anywhere rather than widening the table. Other cells keep their words whole.
   */
  typed?: boolean;
  cell: (row: Row) => ReactNode;
}

interface DataTableProps<Row> {
  /** What the table holds, for screen readers (sighted people have the page's heading). */
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
}

/** Rows on a wide screen, labelled cards on a phone (each cell's `data-label`). */
export function DataTable<Row>({ caption, columns, rows, rowKey }: DataTableProps<Row>) {
  return (
    <table className="table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.label} scope="col">
              {column.labelHidden ? <span className="visually-hidden">{column.label}</span> : column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column) => (
              <td key={column.label} data-label={column.label} className={column.typed ? 'wrap-anywhere' : undefined}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
