// The reads that checking a payout file makes, each once for the whole file (validate.ts): the networks, the
// accounts its emails and addresses belong to, and the payer's limits.
import type pg from 'pg';

/** A currency's network with its withdrawal rules and the currency's precision (amounts as numeric text). */
export interface NetworkRow {
  currency_id: string;
  blockchain_key: string;
  min_withdraw_amount: string;
  withdraw_fee: string;
  withdraw_enabled: boolean;
  precision: number;
}

/** A currency's withdrawal limits for the payer's level and the payer's last 24 hours (numeric text, or null). */
export interface DayLimitRow {
  id: string;
  precision: number;
  per_withdrawal: string | null;
  per_day: string | null;
  day_total: string;
}

/** Every currency network with its withdrawal rules. */
export async function allNetworks(db: pg.Pool): Promise<NetworkRow[]> {
  return (
    await db.query<NetworkRow>(
      `select n.currency_id, n.blockchain_key, n.min_withdraw_amount::text, n.withdraw_fee::text,
              n.withdraw_enabled, c.precision
       from currency_networks n join currencies c on c.id = n.currency_id`,
    )
  ).rows;
}

/** The active accounts with these emails (given in lower case): row id and email in lower case. */
export async function activeEmailOwners(
  db: pg.Pool,
  emails: string[],
): Promise<{ id: string; email: string }[]> {
  return (
    await db.query<{ id: string; email: string }>(
      `select id, lower(email) as email from users where lower(email) = any($1) and state = 'active'`,
      [emails],
    )
  ).rows;
}

/** The accounts owning these deposit addresses (`keys[i]` the network of `addresses[i]`). */
export async function depositAddressOwners(
  db: pg.Pool,
  keys: string[],
  addresses: string[],
): Promise<{ blockchain_key: string; address: string; user_id: string }[]> {
  return (
    await db.query<{ blockchain_key: string; address: string; user_id: string }>(
      `select d.blockchain_key, d.address, d.user_id from deposit_addresses d
       join unnest($1::text[], $2::text[]) as x(k, a) on d.blockchain_key = x.k and d.address = x.a`,
      [keys, addresses],
    )
  ).rows;
}

/**
 * Per currency, the payer's withdrawal limits (of the highest level row not above theirs) and what the payer
 * withdrew in the 24 hours before `now`, the app's clock on which withdrawals are stamped (not counting what came
 * back or travel-rule returns).
 */
export async function dayLimitRows(
  db: pg.Pool,
  payer: { id: number; level: number },
  currencies: string[],
  now: Date,
): Promise<DayLimitRow[]> {
  return (
    await db.query<DayLimitRow>(
      `select c.id, c.precision,
       (select trim_scale(per_withdrawal)::text from withdraw_limits l
         where l.currency_id = c.id and l.level <= $2 order by l.level desc limit 1) as per_withdrawal,
       (select trim_scale(per_day)::text from withdraw_limits l
         where l.currency_id = c.id and l.level <= $2 order by l.level desc limit 1) as per_day,
       (select coalesce(trim_scale(sum(amount)), 0)::text from withdrawals w
         where w.user_id = $1 and w.currency_id = c.id and w.created_at > $4::timestamptz - interval '24 hours'
           and w.state not in ('rejected', 'canceled', 'failed') and w.travel_rule_return_of is null) as day_total
     from currencies c where c.id = any($3)`,
      [payer.id, payer.level, currencies, now],
    )
  ).rows;
}
