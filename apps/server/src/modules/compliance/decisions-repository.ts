import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

type Db = pg.Pool | Tx;

/** The rows compliance decides, each about one customer (its `user_id`). */
type DecidedTable = 'aml_alerts' | 'sanctions_hits' | 'deposits';

/**
 * Locks the row `id` of `table` for a decision (`for update` of that row only, inside the caller's transaction) and
 * reads `columns` of it (the row is `x`) with its customer's uid; undefined when there is none, or when it does not
 * meet `condition` (SQL on `x`).
 */
export async function lockForDecision<T extends { uid: string }>(
  tx: Tx,
  table: DecidedTable,
  columns: string,
  id: number,
  condition = 'true',
): Promise<T | undefined> {
  return (
    await tx.query<T>(
      `select ${columns}, u.uid from ${table} x join users u on u.id = x.user_id
        where x.id = $1 and (${condition}) for update of x`,
      [id],
    )
  ).rows[0];
}

/**
 * Records a decision on an AML alert or a sanctions hit (their decision columns are the same): the new state, why,
 * who took it, and when (`at`, the app's clock).
 */
export async function recordDecision(
  db: Db,
  table: 'aml_alerts' | 'sanctions_hits',
  id: number,
  decision: { state: string; reason: string; decidedBy: string; at: Date },
): Promise<void> {
  await db.query(
    `update ${table} set state = $2, reason = $3, decided_by = $4, decided_at = $5 where id = $1`,
    [id, decision.state, decision.reason, decision.decidedBy, decision.at],
  );
}
