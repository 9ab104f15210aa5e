import type { Queryable } from '../../core/audit.ts';

/** Card top-ups whose amount a customer may still get back: `t` is `card_topups` (see liabilities.ts). */
const CARD_IN_FLIGHT = `(t.state in ('submitted', 'failed') or (t.state = 'new' and exists (
    select 1 from client_commands c where c.ref = 'card-topup:' || t.id and c.ok)))`;

const TOTALS = `with u as (select currency_id, sum(balance) as available, sum(locked) as locked
      from balances group by 1),
    h as (select currency_id, sum(amount) as held from withdrawal_holds group by 1),
    k as (select sum(t.amount) as card from card_topups t where ${CARD_IN_FLIGHT})
  select c.id as currency, c.type, c.precision,
    coalesce(u.available, 0)::text as available, coalesce(u.locked, 0)::text as locked,
    coalesce(h.held, 0)::text as held,
    (case when c.id = $1 then coalesce((select card from k), 0) else 0 end)::text as card
  from currencies c left join u on u.currency_id = c.id left join h on h.currency_id = c.id
  order by c.position, c.id`;

/** One currency's sums as stored (decimal text), with its type and precision. */
export interface CurrencyTotalsRow {
  currency: string;
  type: 'coin' | 'fiat';
  precision: number;
  available: string;
  locked: string;
  held: string;
  card: string;
}

/**
 * Per currency (every one, in the exchange's order): what users hold available and locked, what withdrawal holds
 * keep, and for `cardCurrency` the card top-ups still in flight.
 */
export async function currencyTotals(db: Queryable, cardCurrency: string): Promise<CurrencyTotalsRow[]> {
  return (await db.query<CurrencyTotalsRow>(TOTALS, [cardCurrency])).rows;
}

/** One account's amount owed in one currency, as stored. */
export interface AccountTotalRow {
  user_id: string;
  uid: string;
  currency_id: string;
  precision: number;
  amount: string;
}

/** Per user and currency: balance plus locked, plus (in `cardCurrency`) the user's card top-ups in flight. */
export async function accountTotals(db: Queryable, cardCurrency: string): Promise<AccountTotalRow[]> {
  return (
    await db.query<AccountTotalRow>(
      `with owed as (
         select user_id, currency_id, balance + locked as amount from balances
         union all select t.user_id, $1, t.amount from card_topups t where ${CARD_IN_FLIGHT})
       select o.user_id, u.uid, o.currency_id, c.precision, sum(o.amount)::text as amount
       from owed o join users u on u.id = o.user_id join currencies c on c.id = o.currency_id
       group by o.user_id, u.uid, o.currency_id, c.precision order by o.user_id, o.currency_id`,
      [cardCurrency],
    )
  ).rows;
}
