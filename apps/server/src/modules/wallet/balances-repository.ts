import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on the ledger, as balances over time. */
type Db = pg.Pool | Tx;

/** One currency's ledger total at the end of a day; a day without postings has one row with null currency and total. */
export interface DayTotalRow {
  /** `YYYY-MM-DD`. */
  day: string;
  currency_id: string | null;
  /** Exact decimal, as stored. */
  total: string | null;
}

/**
 * The account's total (`<account>:main` plus `<account>:locked`) per currency at the end of each of the last `days`
 * days up to today, oldest first.
 */
export async function dailyTotals(db: Db, account: string, days: number): Promise<DayTotalRow[]> {
  return (
    await db.query<DayTotalRow>(
      `select to_char(d, 'YYYY-MM-DD') as day, p.currency_id, sum(p.amount)::text as total
     from generate_series(current_date - ($2::int - 1), current_date, interval '1 day') d
     left join ledger_postings p on p.account in ($1 || ':main', $1 || ':locked') and p.created_at < d + interval '1 day'
     group by d, p.currency_id order by d`,
      [account, days],
    )
  ).rows;
}
