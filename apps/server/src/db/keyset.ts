/**
 * One page of a keyset walk through a table by its `id`, oldest first: the rows with `after < id <= upTo`, at most
 * `limit` of them. Unlike an offset, the next page costs the same however deep the walk is, and rows added
 * meanwhile neither shift the pages nor (past `upTo`) make the walk longer: the data export reads a whole history
 * this way, twice (its CSV and its JSON file), and both see the same rows.
 */
export interface Keyset {
  /** The last id of the previous page (0 for the first). */
  after: number;
  /** The highest id the walk includes (the table's newest id when the walk began). */
  upTo: number;
  limit: number;
}
