import { useEffect, useState } from 'react';
import { debounce } from './money.ts';

/** `value` as it was `ms` after it last changed (docs/cards.md#constants: the EUR conversion waits 500 ms after the last key). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const [run] = useState(() => debounce((next: T) => setSettled(() => next), ms));
  useEffect(() => {
    run(value);
  }, [value, run]);
  useEffect(() => () => run.cancel(), [run]);
  return settled;
}
