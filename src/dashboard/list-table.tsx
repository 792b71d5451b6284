/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import { Pager } from './components.js';

/** The list tables of the dashboard pages: columns, one row per item, empty state, next-page link. */

/** One column: its heading, the label a stacked (narrow) row shows, and what a cell holds. */
export interface Column<T> {
  /** The `data-label` of each cell; none for a column of buttons. */
  label?: string;
  /** The heading; the label when not given. */
  head?: string;
  /** Right-aligned numbers. */
  num?: boolean;
  cell: (item: T) => Child;
}

export interface TableProps<T> {
  id?: string;
  rows: T[];
  columns: Column<T>[];
  /** The attributes of a row, e.g. `{ 'data-loan': loan.id }`. */
  row: (item: T) => Record<string, string>;
}

/** A scrolling table that stacks on narrow screens. */
export function Table<T>({ id, rows, columns, row }: TableProps<T>) {
  return (
    <div class="scroll">
      <table class="stack" id={id}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th class={column.num ? 'num' : undefined}>{column.head ?? column.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((item) => (
            <tr {...row(item)}>
              {columns.map((column) => (
                <td data-label={column.label} class={column.num ? 'num' : undefined}>
                  {column.cell(item)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A table, or what its emptiness means; then the page links when `pager` is given. */
export function ListTable<T>({
  empty,
  pager,
  ...table
}: TableProps<T> & {
  empty: Child;
  pager?: {
    base: string;
    params: Record<string, string | undefined>;
    next: string | undefined;
    first: boolean;
  };
}) {
  return (
    <>
      {table.rows.length === 0 ? empty : <Table {...table} />}
      {pager ? <Pager {...pager} /> : null}
    </>
  );
}
