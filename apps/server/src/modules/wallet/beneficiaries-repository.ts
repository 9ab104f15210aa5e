import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on saved withdrawal addresses (`beneficiaries`). */
type Db = pg.Pool | Tx;

/** A beneficiary as a removal link shows it. */
export interface RemovalSubjectRow {
  /** bigint, as text. */
  id: string;
  name: string;
  currency_id: string;
  blockchain_key: string;
  address: string;
}

/** The beneficiary `id` as its removal link shows it, whoever owns it; undefined when there is none. */
export async function beneficiaryForRemoval(db: Db, id: string): Promise<RemovalSubjectRow | undefined> {
  return (
    await db.query<RemovalSubjectRow>(
      'select id, name, currency_id, blockchain_key, address from beneficiaries where id = $1',
      [id],
    )
  ).rows[0];
}

/**
 * Deletes the beneficiary `id`, whoever owns it.
 * @returns its owner's id, or undefined when there was none to delete.
 */
export async function deleteBeneficiaryById(db: Db, id: number): Promise<string | undefined> {
  const removed = await db.query<{ user_id: string }>(
    'delete from beneficiaries where id = $1 returning user_id',
    [id],
  );
  return removed.rowCount === 1 ? removed.rows[0]?.user_id : undefined;
}
