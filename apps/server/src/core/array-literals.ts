/**
 * PostgreSQL array literals (`{1,"a",NULL}`) built column by column: the projector sends every row of a table as
 * one array parameter per column (`unnest($1::bigint[], ...)`), and building those texts is most of its own work.
 */

/** One column's element for a row, already in array-literal syntax (see the helpers below). */
export type Cell<T> = (row: T) => string;

/** The array literal of each column over `rows`. */
export function literals<T>(rows: readonly T[], cells: readonly Cell<T>[]): string[] {
  // Column by column, each joined as soon as it is complete: one column's elements are alive at a time, so the
  // young generation's collections, which copy whatever is still alive, find little (row by row, every column's
  // elements stayed alive until the end, and collecting them cost more than making them). One list per column,
  // joined once: growing one string per element made a rope of as many pieces, which the collector then walked.
  const out = new Array<string>(cells.length);
  const column = new Array<string>(rows.length);
  for (let j = 0; j < cells.length; j++) {
    const cell = cells[j] as Cell<T>;
    for (let i = 0; i < rows.length; i++) column[i] = cell(rows[i] as T);
    out[j] = `{${column.join(',')}}`;
  }
  return out;
}

/** A number, or NULL. */
export const num = (v: number | bigint | null): string => (v === null ? 'NULL' : String(v));

/** A boolean. */
export const bool = (v: boolean): string => (v ? 't' : 'f');

/**
 * A text that cannot hold a quote or a backslash (a decimal, a time, an id of ours, a fixed word), quoted without
 * looking; NULL for null.
 */
export const word = (v: string | null): string => (v === null ? 'NULL' : `"${v}"`);

const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;

/** Any text (a client's own id, say): quoted, with quotes and backslashes escaped; NULL for null. */
export const text = (v: string | null | undefined): string =>
  v === null || v === undefined ? 'NULL' : `"${NEEDS_ESCAPE.test(v) ? v.replace(ESCAPED, '\\$&') : v}"`;

/**
 * `units` of 10^-precision as a decimal (`"12.340000"`), quoted: every digit kept (the column's scale rounds
 * nothing away), so no trailing zeros are trimmed, which is most of what formatting costs.
 */
export function decimal(units: bigint, precision: number): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (precision === 0) return `"${negative ? '-' : ''}${digits}"`;
  if (digits.length <= precision) digits = digits.padStart(precision + 1, '0');
  const point = digits.length - precision;
  return `"${negative ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}"`;
}

let lastMs = Number.NaN;
let lastIso = '';

/** Epoch milliseconds as a quoted ISO 8601 time (a batch's commands mostly share one: the last one is kept). */
export function time(ms: number | null): string {
  if (ms === null) return 'NULL';
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = `"${new Date(ms).toISOString()}"`;
  }
  return lastIso;
}
