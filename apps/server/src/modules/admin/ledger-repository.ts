import type { LedgerTotalsEntity, StatementEntity, StatementRowEntity } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/**
 * The SQL of what accountants read of the ledger: the totals per currency and system account, and a user's
 * statement from the postings of their accounts.
 */

type Db = pg.Pool | Tx;

/** Per currency: users' balances and holds, each system account, and their sum (0 when money is conserved). */
const TOTALS = `with u as (select currency_id, sum(balance) as balance, sum(locked) as locked from balances group by 1),
  s as (select currency_id,
      coalesce(sum(amount) filter (where account = 'fees'), 0) as fees,
      coalesce(sum(amount) filter (where account = 'external'), 0) as external,
      coalesce(sum(amount) filter (where account = 'card'), 0) as card,
      coalesce(sum(amount) filter (where account = 'swap'), 0) as swap
    from system_balances group by 1)
  select c.id as currency,
    trim_scale(coalesce(u.balance, 0))::text as balance, trim_scale(coalesce(u.locked, 0))::text as locked,
    trim_scale(coalesce(s.fees, 0))::text as fees, trim_scale(coalesce(s.external, 0))::text as external,
    trim_scale(coalesce(s.card, 0))::text as card, trim_scale(coalesce(s.swap, 0))::text as swap,
    trim_scale(coalesce(u.balance, 0) + coalesce(u.locked, 0) + coalesce(s.fees, 0) + coalesce(s.external, 0)
      + coalesce(s.card, 0) + coalesce(s.swap, 0))::text as sum
  from currencies c left join u on u.currency_id = c.id left join s on s.currency_id = c.id
  order by c.position, c.id`;

/** The ledger's totals of every currency, in display order. */
export async function ledgerTotals(db: Db): Promise<LedgerTotalsEntity[]> {
  return (await db.query<LedgerTotalsEntity>(TOTALS)).rows;
}

/** The database's `now()`: in a transaction, when it began (the time of its snapshot). */
export async function transactionTime(db: Db): Promise<Date> {
  const row = (await db.query<{ at: Date }>('select now() as at')).rows[0];
  if (!row) throw new Error('select now() returned no row');
  return row.at;
}

/**
 * Within one command, movements follow the order money moved in: an order's hold or release, the trade, the
 * command's own cause, then the fees it charged.
 */
const CAUSE_ORDER = `array_position(array['order', 'trade', 'deposit', 'adjustment', 'withdrawal', 'transfer', 'swap',
  'card_topup', 'card_fee', 'card_refund', 'liquidity', 'fee'], kind)`;

/**
 * The movements of an account (`$1`: `u:<id>`, its `:main` and `:locked` postings) in a currency (`$2`): one row
 * per command and cause, with the running balances after each, the postings that named no command summed into the
 * opening balances.
 */
const MOVEMENTS = `with p as (
    select command_seq, kind, ${CAUSE_ORDER} as rank, ref, min(created_at) as at,
      coalesce(sum(amount) filter (where account = $1 || ':main'), 0) as main,
      coalesce(sum(amount) filter (where account = $1 || ':locked'), 0) as locked
    from ledger_postings
    where account in ($1 || ':main', $1 || ':locked') and currency_id = $2 and command_seq is not null
    group by command_seq, kind, ref),
  opening as (
    select coalesce(sum(amount) filter (where account = $1 || ':main'), 0) as main,
      coalesce(sum(amount) filter (where account = $1 || ':locked'), 0) as locked
    from ledger_postings
    where account in ($1 || ':main', $1 || ':locked') and currency_id = $2 and command_seq is null),
  running as (
    select p.*, o.main + sum(p.main) over w as balance_after, o.locked + sum(p.locked) over w as locked_after,
      count(*) over () as total
    from p, opening o
    window w as (order by p.command_seq, p.rank, p.ref rows unbounded preceding))`;

/** The movements made from `$3` (or any time) until before `$4` (or any time). */
const ROW = `select command_seq, kind, rank, ref, at, trim_scale(main)::text as main, trim_scale(locked)::text as locked,
    trim_scale(balance_after)::text as balance_after, trim_scale(locked_after)::text as locked_after, total
  from running where ($3::timestamptz is null or at >= $3) and ($4::timestamptz is null or at < $4)`;

/** One movement of a statement as the database gives it (amounts and balances as decimal strings). */
export interface MovementRow {
  command_seq: string;
  kind: StatementRowEntity['cause'];
  ref: string | null;
  at: Date;
  main: string;
  locked: string;
  balance_after: string;
  locked_after: string;
}

/** Whose statement, in which currency, and the window of time (null: unbounded). */
export interface StatementWindow {
  /** The ledger account prefix of the user: `u:<id>`. */
  account: string;
  currency: string;
  from: string | null;
  to: string | null;
}

const windowArgs = (w: StatementWindow) => [w.account, w.currency, w.from, w.to];

/** A page of the movements in the window, oldest first (by command, cause, reference). */
export async function statementMovements(
  db: Db,
  w: StatementWindow,
  limit: number,
  offset: number,
): Promise<MovementRow[]> {
  return (
    await db.query<MovementRow>(`${MOVEMENTS} ${ROW} order by command_seq, rank, ref limit $5 offset $6`, [
      ...windowArgs(w),
      limit,
      offset,
    ])
  ).rows;
}

/** How many movements the window holds. */
export async function countStatementMovements(db: Db, w: StatementWindow): Promise<number> {
  const row = (
    await db.query<{ n: number }>(`${MOVEMENTS} select count(*)::int as n from (${ROW}) w`, windowArgs(w))
  ).rows[0];
  return row?.n ?? 0;
}

/** The balances before the journal: the account's postings in the currency that named no command, summed. */
export async function openingBalances(
  db: Db,
  account: string,
  currency: string,
): Promise<StatementEntity['opening']> {
  const row = (
    await db.query<StatementEntity['opening']>(
      `select trim_scale(coalesce(sum(amount) filter (where account = $1 || ':main'), 0))::text as balance,
         trim_scale(coalesce(sum(amount) filter (where account = $1 || ':locked'), 0))::text as locked
       from ledger_postings where account in ($1 || ':main', $1 || ':locked') and currency_id = $2
         and command_seq is null`,
      [account, currency],
    )
  ).rows[0];
  return row ?? { balance: '0', locked: '0' };
}
