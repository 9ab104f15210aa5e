import pg from 'pg';

/** Opens a connection pool; numeric and int8 columns arrive as strings (never JS numbers). */
export function createPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, application_name: 'exchange' });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // A checked-out client has no pool listener: when its backend dies between two queries (the server was killed,
  // 57P01), it emits 'error', which unheard would end the process. The query in progress, or the next one, fails
  // on its own, and the pool discards the broken client on release, so hearing the event is all it takes.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * The row type of a statement that returns no rows (an update or delete without `returning`), where only its
 * `rowCount` is read.
 */
export type NoRows = Record<string, never>;

/** The row of `select 1 ...`, an existence check whose row count is read (pg names the column `?column?`). */
export type SelectOne = { '?column?': number };

/** A client inside a transaction. */
export type Tx = pg.PoolClient;

/** Runs `work` in one transaction: commit on success, rollback and rethrow on failure. */
export function withTransaction<T>(pool: pg.Pool, work: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(pool, 'begin', work);
}

/**
 * Runs `work` in one read-only repeatable-read transaction: everything it reads is one snapshot of the database
 * (totals and the audit of them, a statement and its running balances, an engine and the journal after it).
 */
export function withReadSnapshot<T>(pool: pg.Pool, work: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(pool, 'begin isolation level repeatable read read only', work);
}

async function inTransaction<T>(pool: pg.Pool, begin: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await transactionOn(client, () => work(client), begin);
  } finally {
    client.release();
  }
}

/**
 * Runs `work` in one transaction on a connection the caller already holds (one that keeps a session-level
 * advisory lock across the transaction, say): commit on success, rollback and rethrow on failure.
 */
export async function transactionOn<T>(client: Tx, work: () => Promise<T>, begin = 'begin'): Promise<T> {
  await client.query(begin);
  try {
    const result = await work();
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  }
}

/**
 * Runs independent queries: at once on a pool (each on a connection of its own), one after the other on a single
 * client, where concurrent queries would only queue (and pg deprecates them).
 */
export async function allQueries<T extends readonly unknown[]>(
  db: pg.Pool | pg.PoolClient,
  queries: { [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  if (db instanceof pg.Pool) return (await Promise.all(queries.map((q) => q()))) as unknown as T;
  const results: unknown[] = [];
  for (const query of queries) results.push(await query());
  return results as unknown as T;
}

/** Whether the database answers a trivial query (health checks and metrics); throws when it does not. */
export async function pingDatabase(db: pg.Pool): Promise<void> {
  await db.query('select 1');
}
