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
