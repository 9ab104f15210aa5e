import type pg from 'pg';
import type { Member } from './wallet.ts';

/**
 * A self-hosted address saved straight in the table as active, for a network the test app does not run (a proof
 * of ownership does not touch the chain); returns its id.
 */
export async function savedOffChain(
  db: pg.Pool,
  who: Member,
  address: string,
  currency: string,
  network: string,
): Promise<number> {
  const row = await db.query(
    `insert into beneficiaries (user_id, currency_id, blockchain_key, name, address, state, beneficiary_name, hosting)
     values ($1, $2, $3, 'mine', $4, 'active', 'Jan Kowalski', 'self_hosted') returning id`,
    [who.id, currency, network, address],
  );
  return Number(row.rows[0].id);
}
