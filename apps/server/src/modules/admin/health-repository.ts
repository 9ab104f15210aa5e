import type pg from 'pg';

/** The SQL of the console's health page: what needs an operator's eye in the database. */

/** Deliveries failing and withdrawals needing an operator. */
export interface OperatorCounts {
  /** KYC simulator webhooks tried and not delivered. */
  kyc: number;
  /** Card issuer simulator webhooks tried and not delivered. */
  card: number;
  /** Withdrawals `errored`. */
  errored: number;
  /** Withdrawals `under_review`. */
  review: number;
}

/** How many webhook deliveries are failing and how many withdrawals wait for an operator. */
export async function operatorCounts(db: pg.Pool): Promise<OperatorCounts> {
  const row = (
    await db.query<OperatorCounts>(
      `select (select count(*)::int from kyc_sim_webhooks where delivered_at is null and attempts > 0) as kyc,
         (select count(*)::int from cardsim_webhooks where delivered_at is null and attempts > 0) as card,
         (select count(*)::int from withdrawals where state = 'errored') as errored,
         (select count(*)::int from withdrawals where state = 'under_review') as review`,
    )
  ).rows[0];
  return row ?? { kyc: 0, card: 0, errored: 0, review: 0 };
}
