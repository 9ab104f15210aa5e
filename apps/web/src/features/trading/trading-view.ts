import type { Market, Tickers } from './api.ts';
import type { BookState } from './book.ts';
import type { BookPick } from './book-view.ts';

/** What the trading page knows, handed to its desktop or phone layout. */
export interface TradingView {
  id: string;
  markets: Market[];
  /** Undefined for an unknown market (the chart area says Symbol not found). */
  market: Market | undefined;
  tickers: Tickers | undefined;
  logged: boolean;
  book: BookState;
  /** The level last picked in the book, for the order form. */
  picked: BookPick | undefined;
  pick: (pick: BookPick) => void;
}
