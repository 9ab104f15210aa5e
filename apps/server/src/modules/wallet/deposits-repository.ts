import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on chain deposits (`deposits`). */
type Db = pg.Pool | Tx;

/**
 * Settles a `submitted` deposit as the core answered: `accepted` (stamping `credited_at`) or `errored` with the
 * core's code as its note. A deposit in another state is left as it is.
 */
export async function settleSubmittedDeposit(
  db: Db,
  id: number | string,
  outcome: { ok: true } | { ok: false; code: string | null },
): Promise<void> {
  await db.query(
    `update deposits set state = $2, credited_at = case when $3 then now() end, note = $4, updated_at = now()
     where id = $1 and state = 'submitted'`,
    [id, outcome.ok ? 'accepted' : 'errored', outcome.ok, outcome.ok ? null : outcome.code],
  );
}
