import type { adjustmentResponse } from '@exchange/shared';
import type pg from 'pg';
import type { z } from 'zod';
import type { Tx } from '../../db/pool.ts';
import { isoSql } from '../identity/users-repository.ts';

/** The SQL of staff adjustments (four eyes: one staff member proposes, another decides). */

type Db = pg.Pool | Tx;

/** A staff proposal as the console lists it. */
export type AdjustmentEntity = z.infer<typeof adjustmentResponse>;

/** An adjustments row (ids and amounts as strings, as node-postgres reads bigint and numeric). */
export interface AdjustmentRecord {
  id: string;
  user_id: string;
  currency_id: string;
  amount: string;
  reason: string;
  state: string;
  proposed_by: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `select a.id::int, u.uid, u.email, a.currency_id as currency, trim_scale(a.amount)::text as amount,
  a.reason, a.state, p.email as proposed_by, d.email as decided_by,
  ${isoSql('a.created_at')} as created_at
  from adjustments a join users u on u.id = a.user_id
  left join users p on p.id = a.proposed_by left join users d on d.id = a.decided_by`;

/** The latest 200 adjustments proposed by staff, newest first, in one state (null: any). */
export async function staffAdjustments(db: Db, state: string | null): Promise<AdjustmentEntity[]> {
  return (
    await db.query<AdjustmentEntity>(
      `${SELECT} where a.proposed_by is not null and ($1::text is null or a.state = $1) order by a.id desc limit 200`,
      [state],
    )
  ).rows;
}

/** One adjustment as the console shows it, or undefined. */
export async function adjustmentEntity(db: Db, id: number): Promise<AdjustmentEntity | undefined> {
  return (await db.query<AdjustmentEntity>(`${SELECT} where a.id = $1`, [id])).rows[0];
}

/** Stores a staff member's proposal (`proposed`): its id. */
export async function insertProposal(
  db: Db,
  proposal: { userId: string; currency: string; amount: string; reason: string; proposedBy: string },
): Promise<number> {
  const row = (
    await db.query<{ id: string }>(
      `insert into adjustments (user_id, currency_id, amount, reason, state, proposed_by)
       values ($1, $2, $3, $4, 'proposed', $5) returning id`,
      [proposal.userId, proposal.currency, proposal.amount, proposal.reason, proposal.proposedBy],
    )
  ).rows[0];
  return Number(row?.id);
}

/** The adjustment if it is still `proposed`, locked until the transaction ends; else undefined. */
export async function lockProposal(tx: Tx, id: number): Promise<AdjustmentRecord | undefined> {
  return (
    await tx.query<AdjustmentRecord>(
      `select * from adjustments where id = $1 and state = 'proposed' for update`,
      [id],
    )
  ).rows[0];
}

/** Records the decision on a proposal: its new state (`pending` or `rejected`) and who decided, at `at`. */
export async function markDecided(
  tx: Tx,
  id: number,
  state: 'pending' | 'rejected',
  decidedBy: string,
  at: Date,
): Promise<void> {
  await tx.query(
    `update adjustments set state = $2, decided_by = $3, decided_at = $4, updated_at = now() where id = $1`,
    [id, state, decidedBy, at],
  );
}
