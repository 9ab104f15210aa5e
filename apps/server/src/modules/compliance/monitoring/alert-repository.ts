import type pg from 'pg';
import type { Tx } from '../../../db/pool.ts';
import { isoSql } from '../../identity/users-repository.ts';
import { lockForDecision, recordDecision } from '../decisions-repository.ts';

type Db = pg.Pool | Tx;

/** An alert's row as the console lists it: the EUR value still in cents (decimal text), as stored. */
export interface AlertRow {
  id: number;
  uid: string;
  email: string;
  rule: string;
  state: string;
  eur_cents: string | null;
  facts: Record<string, unknown>;
  operation_ids: number[];
  reason: string | null;
  report_id: number | null;
  created_at: string;
  decided_at: string | null;
}

/** An open alert locked for a decision: its customer (bigint id as text), rule and the customer's uid. */
export interface LockedAlert {
  user_id: string;
  rule: string;
  uid: string;
}

const ALERT_SELECT = `select a.id::int, u.uid, u.email, a.rule, a.state, a.eur_cents::text, a.facts,
    a.operation_ids::int[] as operation_ids, a.reason, r.id::int as report_id,
    ${isoSql('a.created_at')} as created_at, ${isoSql('a.decided_at')} as decided_at
  from aml_alerts a join users u on u.id = a.user_id left join aml_reports r on r.alert_id = a.id`;

/** The filter of {@link alertPage} and {@link alertCount}: one state, or all. */
const ALERT_WHERE = `where ($1 = 'all' or a.state = $1)`;

/** One page of the alerts in `state` (or all), newest first. */
export async function alertPage(db: Db, state: string, limit: number, offset: number): Promise<AlertRow[]> {
  return (
    await db.query<AlertRow>(`${ALERT_SELECT} ${ALERT_WHERE} order by a.id desc limit $2 offset $3`, [
      state,
      limit,
      offset,
    ])
  ).rows;
}

/** How many alerts are in `state` (or all). */
export async function alertCount(db: Db, state: string): Promise<number> {
  return (
    (await db.query<{ n: number }>(`select count(*)::int as n from aml_alerts a ${ALERT_WHERE}`, [state]))
      .rows[0]?.n ?? 0
  );
}

/** The alert with this id (undefined when unknown). */
export async function alertRow(db: Db, id: number): Promise<AlertRow | undefined> {
  return (await db.query<AlertRow>(`${ALERT_SELECT} where a.id = $1`, [id])).rows[0];
}

/** Locks the alert if it is open (`for update` of the alert, inside the caller's transaction); else undefined. */
export function lockOpenAlertRow(tx: Tx, id: number): Promise<LockedAlert | undefined> {
  return lockForDecision<LockedAlert>(tx, 'aml_alerts', 'x.user_id, x.rule', id, "x.state = 'open'");
}

/**
 * Records staff's decision on the alert at `at` (the app's clock): closed as a false positive with the reason, or
 * escalated with the report's narrative as its reason (`at` is then the report's suspicion moment).
 */
export function markAlertDecided(
  db: Db,
  id: number,
  state: 'closed' | 'escalated',
  reason: string,
  decidedBy: string,
  at: Date,
): Promise<void> {
  return recordDecision(db, 'aml_alerts', id, { state, reason, decidedBy, at });
}
