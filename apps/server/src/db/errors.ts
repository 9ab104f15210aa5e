/**
 * A request could not be served because the database is unreachable (down, restarting, or the connection was
 * cut). The API answers 503 `server.database_unavailable` for it; the exchange core raises it while it waits to
 * reload itself from the database.
 */
export class DatabaseUnavailableError extends Error {
  readonly code = 'DATABASE_UNAVAILABLE';
}

/**
 * SQLSTATEs and socket errors that mean "the database cannot do this now", not "this statement is wrong":
 * 57P01 admin_shutdown (also sent when the postmaster died), 57P02 crash_shutdown, 57P03 cannot_connect_now
 * (starting up or in recovery), class 08 connection exceptions, the socket errors of a server that is gone, and
 * 53100 disk_full (the server cannot write: nothing was committed, and it passes when room is made).
 */
const CODES = new Set(['57P01', '57P02', '57P03', '53100', 'ECONNREFUSED', 'ECONNRESET']);
/** What node-postgres throws itself, without a code, when the connection breaks under a client. */
const MESSAGES = [
  /Connection terminated/i,
  /connection error and is not queryable/i,
  /timeout exceeded when trying to connect/i,
];

/**
 * True when `err` (or its `cause`, or any error an AggregateError holds) says that the database cannot be
 * reached, so the caller should answer 503 and retry later rather than treat it as a bug.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 5) return false;
  if (err instanceof DatabaseUnavailableError) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (MESSAGES.some((m) => m.test(err.message))) return true;
  if (err instanceof AggregateError && err.errors.some((e) => isDatabaseUnavailable(e, depth + 1)))
    return true;
  return isDatabaseUnavailable(err.cause, depth + 1);
}

/** Pauses between attempts while the database is still down, growing to the last. */
const RETRY_BACKOFF_MS = [100, 250, 500, 1000, 2000];

/**
 * Runs `attempt` until it succeeds, again after a growing pause each time it fails because the database is
 * unavailable. Resolves with the first failure of another kind, or undefined once an attempt succeeded.
 */
export async function retryWhileDatabaseDown(attempt: () => Promise<void>): Promise<Error | undefined> {
  for (let n = 0; ; n++) {
    try {
      await attempt();
      return undefined;
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      if (!isDatabaseUnavailable(error)) return error;
      const wait = RETRY_BACKOFF_MS[Math.min(n, RETRY_BACKOFF_MS.length - 1)] as number;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
