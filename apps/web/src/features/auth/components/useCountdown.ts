import { useCallback, useEffect, useState } from 'react';

/** A seconds countdown: `start(n)` counts down to 0 once a second; `reset()` stops it. */
export function useCountdown() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = window.setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds]);
  return {
    seconds,
    running: seconds > 0,
    start: useCallback((n: number) => setSeconds(n), []),
    reset: useCallback(() => setSeconds(0), []),
  };
}
