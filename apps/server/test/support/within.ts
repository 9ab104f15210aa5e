/**
 * Polls `check` every 20 ms until it holds and returns how long that took (ms); throws once `limitMs` has passed
 * without it. For what the system promises to do within a bound (e.g. a change heard by every process).
 */
export async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > limitMs) throw new Error(`still not so after ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}
