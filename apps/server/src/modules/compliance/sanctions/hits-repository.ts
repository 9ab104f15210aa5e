import type { AdminSanctionsHit, SanctionsSubjectKind } from '@exchange/shared';
import type pg from 'pg';
import type { NoRows, SelectOne, Tx } from '../../../db/pool.ts';
import { isoSql } from '../../identity/users-repository.ts';
import { lockForDecision, recordDecision } from '../decisions-repository.ts';

type Db = pg.Pool | Tx;

/** A hit's decision: a false positive (withdrawals open again) or confirmed (they stay frozen). */
export type HitDecision = 'false_positive' | 'confirmed';

/** An open hit locked for a decision: its customer (bigint id as text), state and the customer's uid. */
export interface LockedHit {
  user_id: string;
  state: AdminSanctionsHit['state'];
  uid: string;
}

/** A new hit: the customer's name that matched, and the list entry it matched with its score (0..100). */
export interface NewHit {
  userId: string | number;
  subjectKind: SanctionsSubjectKind;
  subjectName: string;
  listId: string;
  entryLogicalId: string;
  entryReference: string | null;
  entryName: string;
  entrySubjectType: string;
  entryRegulation: string | null;
  score: number;
}

const SELECT = `select h.id::int, u.uid, u.email, h.subject_kind, h.subject_name, h.entry_logical_id,
    h.entry_reference, h.entry_name, h.entry_subject_type, h.entry_regulation, h.score, h.state,
    d.email as decided_by, ${isoSql('h.decided_at')} as decided_at, h.reason, ${isoSql('h.created_at')} as created_at
  from sanctions_hits h join users u on u.id = h.user_id left join users d on d.id = h.decided_by`;

/** The hits in one state (or all), newest first, at most 500. */
export async function hitsIn(
  db: Db,
  state: 'open' | 'false_positive' | 'confirmed' | 'all',
): Promise<AdminSanctionsHit[]> {
  return (
    await db.query<AdminSanctionsHit>(
      `${SELECT} where ($1 = 'all' or h.state = $1) order by h.id desc limit 500`,
      [state],
    )
  ).rows;
}

/** The hit with this id as the console shows it (undefined when unknown). */
export async function hitById(db: Db, id: number): Promise<AdminSanctionsHit | undefined> {
  return (await db.query<AdminSanctionsHit>(`${SELECT} where h.id = $1`, [id])).rows[0];
}

/** Locks the hit (`for update`, inside the caller's transaction); undefined when unknown. */
export function lockHit(tx: Tx, id: number): Promise<LockedHit | undefined> {
  return lockForDecision<LockedHit>(tx, 'sanctions_hits', 'x.user_id, x.state', id);
}

/** Records a decision on the hit at `at` (the app's clock), with who took it and why. */
export function recordHitDecision(
  db: Db,
  id: number,
  decision: HitDecision,
  decidedBy: string,
  reason: string,
  at: Date,
): Promise<void> {
  return recordDecision(db, 'sanctions_hits', id, { state: decision, reason, decidedBy, at });
}

/** How many hits wait for a decision. */
export async function countOpenHits(db: Db): Promise<number> {
  return (
    (await db.query<{ n: number }>(`select count(*)::int as n from sanctions_hits where state = 'open'`))
      .rows[0]?.n ?? 0
  );
}

/** Whether the customer has a hit that is open or confirmed. */
export async function hasFreezingHit(db: Db, userId: string | number): Promise<boolean> {
  const row = (
    await db.query<SelectOne>(
      `select 1 from sanctions_hits where user_id = $1 and state in ('open', 'confirmed') limit 1`,
      [userId],
    )
  ).rows[0];
  return row !== undefined;
}

/** Records a hit; false when the same name was raised against the same entry already (nothing changes then). */
export async function insertHit(db: Db, hit: NewHit): Promise<boolean> {
  const inserted = await db.query<NoRows>(
    `insert into sanctions_hits (user_id, subject_kind, subject_name, list_id, entry_logical_id,
             entry_reference, entry_name, entry_subject_type, entry_regulation, score)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           on conflict (user_id, subject_kind, subject_name, entry_logical_id) do nothing`,
    [
      hit.userId,
      hit.subjectKind,
      hit.subjectName,
      hit.listId,
      hit.entryLogicalId,
      hit.entryReference,
      hit.entryName,
      hit.entrySubjectType,
      hit.entryRegulation,
      hit.score,
    ],
  );
  return (inserted.rowCount ?? 0) > 0;
}
