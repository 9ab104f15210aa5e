import type pg from 'pg';

/** A network's withdrawal fee (decimal text) and its currency's precision, or undefined when it has none. */
export async function networkFee(
  tx: pg.PoolClient,
  currency: string,
  network: string,
): Promise<{ fee: string; precision: number } | undefined> {
  return (
    await tx.query<{ fee: string; precision: number }>(
      `select n.withdraw_fee::text as fee, c.precision from currency_networks n
         join currencies c on c.id = n.currency_id where n.currency_id = $1 and n.blockchain_key = $2`,
      [currency, network],
    )
  ).rows[0];
}

/** Records a return as a `prepared` withdrawal of the customer's account to `address`; its id. */
export async function insertReturnWithdrawal(
  tx: pg.PoolClient,
  r: {
    userId: string | number;
    currency: string;
    network: string;
    address: string;
    amount: string;
    fee: string;
    note: string;
    depositId: number;
  },
): Promise<number> {
  const row = (
    await tx.query<{ id: string }>(
      `insert into withdrawals (user_id, currency_id, blockchain_key, rid, amount, fee, note, travel_rule_return_of)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
      [r.userId, r.currency, r.network, r.address, r.amount, r.fee, r.note, r.depositId],
    )
  ).rows[0];
  return Number(row?.id);
}

/** A return still `prepared` (its funds not held yet), or undefined. */
export async function preparedReturn(
  db: pg.Pool,
  withdrawalId: number,
): Promise<{ user_id: string; currency_id: string; amount: string } | undefined> {
  return (
    await db.query<{ user_id: string; currency_id: string; amount: string }>(
      `select user_id, currency_id, amount::text from withdrawals
        where id = $1 and state = 'prepared' and travel_rule_return_of is not null`,
      [withdrawalId],
    )
  ).rows[0];
}

/** Hands a prepared return (its funds now held) to the withdrawal processor. */
export async function acceptReturn(db: pg.Pool, withdrawalId: number): Promise<void> {
  await db.query(
    `update withdrawals set state = 'accepted', updated_at = now() where id = $1 and state = 'prepared'`,
    [withdrawalId],
  );
}

/** Returns left `prepared` for over a minute (a crash between the record and the hold), at most 50. */
export async function staleReturns(db: pg.Pool): Promise<number[]> {
  const rows = await db.query<{ id: string }>(
    `select id from withdrawals where state = 'prepared' and travel_rule_return_of is not null
       and updated_at < now() - interval '1 minute' order by id limit 50`,
  );
  return rows.rows.map((r) => Number(r.id));
}

/** Whether a withdrawal is a travel-rule return. */
export async function withdrawalIsReturn(db: pg.Pool, withdrawalId: number): Promise<boolean> {
  const row = (
    await db.query<{ is_return: boolean }>(
      'select travel_rule_return_of is not null as is_return from withdrawals where id = $1',
      [withdrawalId],
    )
  ).rows[0];
  return row?.is_return === true;
}
