/**
 * The order book's merge logic, kept free of React so it can be tested alone: a `<m>.ob-snap` frame replaces
 * the book, each `<m>.ob-inc` frame changes levels and must carry the next `sequence`; after a gap the book
 * can no longer be trusted: increments are ignored until a fresh snapshot, which is asked for.
 */
import { fixed, units } from '../../components/format.tsx';

/** A price level on the wire: `[price, amount]`; amount 0 removes the level. */
export type Level = [string, string];

/** Levels by price (normalised to 18 decimals) and the sequence of the last frame applied (-1: none yet). */
export interface BookState {
  asks: ReadonlyMap<string, string>;
  bids: ReadonlyMap<string, string>;
  sequence: number;
}

/** A frame as the stream sends it: whole sides in a snapshot, one level (or a few) in an increment. */
export interface BookFrame {
  asks?: unknown;
  bids?: unknown;
  sequence?: number;
}

/** What merging a frame did: the book to show, and whether a fresh snapshot must be requested. */
export interface MergeResult {
  book: BookState;
  resync: boolean;
}

/** The book before its first snapshot. */
export const emptyBook = (): BookState => ({ asks: new Map(), bids: new Map(), sequence: -1 });

/** Accepts one level (`[p, a]`) or a list of levels; anything else is no levels. */
function levels(value: unknown): Level[] {
  if (!Array.isArray(value)) return [];
  if (value.length === 2 && typeof value[0] === 'string') return [value as Level];
  return value.filter(
    (v): v is Level =>
      Array.isArray(v) && v.length >= 2 && typeof v[0] === 'string' && typeof v[1] === 'string',
  );
}

function applyLevels(side: ReadonlyMap<string, string>, list: Level[]): Map<string, string> {
  const next = new Map(side);
  for (const [price, amount] of list) {
    const key = fixed(price, 18);
    if (units(amount) === 0n) next.delete(key);
    else next.set(key, amount);
  }
  return next;
}

/**
 * Merges a snapshot (`kind` "snap") or an increment ("inc") into `book`. Increments before the first snapshot
 * and repeats of an applied sequence change nothing; an increment that skips a sequence asks for a resync and
 * stops the book until the next snapshot.
 */
export function mergeBookFrame(book: BookState, kind: 'snap' | 'inc', frame: BookFrame): MergeResult {
  const sequence = typeof frame.sequence === 'number' ? frame.sequence : undefined;
  if (kind === 'snap') {
    return {
      book: {
        asks: applyLevels(new Map(), levels(frame.asks)),
        bids: applyLevels(new Map(), levels(frame.bids)),
        sequence: sequence ?? 0,
      },
      resync: false,
    };
  }
  if (book.sequence < 0) return { book, resync: false };
  if (sequence !== undefined && sequence <= book.sequence) return { book, resync: false };
  // Levels stay on screen until the snapshot replaces them; increments wait for it (sequence -1).
  if (sequence !== book.sequence + 1) return { book: { ...book, sequence: -1 }, resync: true };
  return {
    book: {
      asks: applyLevels(book.asks, levels(frame.asks)),
      bids: applyLevels(book.bids, levels(frame.bids)),
      sequence,
    },
    resync: false,
  };
}

/** One displayed level with the running total (for the depth bar). */
export interface BookRow {
  price: string;
  amount: string;
  total: bigint;
}

/** The best `depth` levels of a side: asks ascending, bids descending, with running totals. */
export function bestLevels(side: ReadonlyMap<string, string>, ascending: boolean, depth: number): BookRow[] {
  const rows = [...side.entries()].sort(([a], [b]) => {
    const d = units(a) - units(b);
    if (d === 0n) return 0;
    return d > 0n === ascending ? 1 : -1;
  });
  let total = 0n;
  return rows.slice(0, depth).map(([price, amount]) => {
    total += units(amount);
    return { price, amount, total };
  });
}
