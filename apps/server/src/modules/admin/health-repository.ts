import type pg from 'pg';

/** The SQL of the console's health page: what needs an operator's eye in the database. */

/** Provider webhooks we could not match and withdrawals needing an operator. */
export interface OperatorCounts {
  /** KYC webhooks received in the last day about an applicant we do not know. */
  kyc: number;
  /** Card issuer webhooks received in the last day about a holder or card we do not know. */
  card: number;
  /** Withdrawals `errored`. */
  errored: number;
  /** Withdrawals `under_review`. */
  review: number;
}

/**
 * How many provider webhooks of the last day we received but could not match (our own intake: whether a provider's
 * deliveries fail is the provider's to report) and how many withdrawals wait for an operator.
 */
export async function operatorCounts(db: pg.Pool): Promise<OperatorCounts> {
  const row = (
    await db.query<OperatorCounts>(
      `select (select count(*)::int from kyc_webhook_events
           where outcome = 'unknown_applicant' and received_at > now() - interval '1 day') as kyc,
         (select count(*)::int from card_webhook_events
           where outcome = 'unknown' and received_at > now() - interval '1 day') as card,
         (select count(*)::int from withdrawals where state = 'errored') as errored,
         (select count(*)::int from withdrawals where state = 'under_review') as review`,
    )
  ).rows[0];
  return row ?? { kyc: 0, card: 0, errored: 0, review: 0 };
}
