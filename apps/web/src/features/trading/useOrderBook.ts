import { useRef, useState } from 'react';
import { ranger, useRanger } from '../../api/ranger.ts';
import { type BookFrame, type BookState, emptyBook, mergeBookFrame } from './book.ts';

/**
 * The live order book of a market, from `<m>.ob-snap` (sent on subscribing to `<m>.ob-inc`) and `<m>.ob-inc`
 * one-level changes; a sequence gap subscribes again for a fresh snapshot. Held by the trading page so the book
 * table and the depth chart show the same levels from one subscription.
 */
export function useOrderBook(marketId: string): BookState {
  // A ref, not only state: frames can arrive faster than React renders, and each builds on the previous one.
  const book = useRef<BookState>(emptyBook());
  const [shown, setShown] = useState<BookState>(book.current);
  const [forMarket, setForMarket] = useState(marketId);
  const stream = `${marketId}.ob-inc`;
  // Another market starts from an empty book, not from the levels of the one before.
  if (forMarket !== marketId) {
    book.current = emptyBook();
    setForMarket(marketId);
    setShown(book.current);
  }

  useRanger(
    'public',
    [stream],
    (payload, key) => {
      const kind = key.endsWith('.ob-snap') ? 'snap' : 'inc';
      const { book: next, resync } = mergeBookFrame(book.current, kind, (payload ?? {}) as BookFrame);
      if (next === book.current) return;
      book.current = next;
      setShown(next);
      if (resync) ranger.public.resubscribe([stream]);
    },
    [stream, `${marketId}.ob-snap`],
  );
  return shown;
}
