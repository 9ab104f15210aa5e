import type { StatementEntity, StatementQuery, StatementRowEntity } from '@exchange/shared';
import type pg from 'pg';
import { withReadSnapshot } from '../../db/pool.ts';
import { csvField } from './ledger.ts';

/**
 * A user's movements in one currency, from the ledger: the postings on the user's available (`u:<id>:main`) and
 * held (`u:<id>:locked`) accounts, one row per command and cause (a trade, its fee, an order's hold, a deposit ...),
 * oldest first, with the balances after each row. Postings from before the journal named no command: they are
 * summed into the opening balances. Read in one snapshot, so the running balances agree with the rows.
 */
/**
 * Within one command, movements follow the order money moved in: an order's hold or release, the trade, the
 * command's own cause, then the fees it charged.
 */
const CAUSE_ORDER = `array_position(array['order', 'trade', 'deposit', 'adjustment', 'withdrawal', 'transfer', 'swap',
  'card_topup', 'card_fee', 'card_refund', 'liquidity', 'fee'], kind)`;

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

const ROW = `select command_seq, kind, rank, ref, at, trim_scale(main)::text as main, trim_scale(locked)::text as locked,
    trim_scale(balance_after)::text as balance_after, trim_scale(locked_after)::text as locked_after, total
  from running where ($3::timestamptz is null or at >= $3) and ($4::timestamptz is null or at < $4)`;

interface MovementRow {
  command_seq: string;
  kind: StatementRowEntity['cause'];
  ref: string | null;
  at: Date;
  main: string;
  locked: string;
  balance_after: string;
  locked_after: string;
}

const entity = (r: MovementRow): StatementRowEntity => ({
  command: Number(r.command_seq),
  at: r.at.toISOString(),
  cause: r.kind,
  ref: r.ref,
  balance_change: r.main,
  locked_change: r.locked,
  balance: r.balance_after,
  locked: r.locked_after,
});

/** One page of a user's statement (oldest first), with the number of movements in the window for `Total`. */
export async function accountStatement(
  db: pg.Pool,
  user: { id: string; uid: string },
  q: StatementQuery,
): Promise<StatementEntity> {
  return withReadSnapshot(db, async (client) => {
    const args = [`u:${user.id}`, q.currency, q.from ?? null, q.to ?? null];
    // One after the other: one connection runs one query at a time (node-postgres only queued the others, and
    // deprecates that); the snapshot keeps the three reads consistent all the same.
    const rows = await client.query<MovementRow>(
      `${MOVEMENTS} ${ROW} order by command_seq, rank, ref limit $5 offset $6`,
      [...args, q.limit, (q.page - 1) * q.limit],
    );
    const counted = await client.query(`${MOVEMENTS} select count(*)::int as n from (${ROW}) w`, args);
    const opening = await client.query(
      `select trim_scale(coalesce(sum(amount) filter (where account = $1 || ':main'), 0))::text as balance,
         trim_scale(coalesce(sum(amount) filter (where account = $1 || ':locked'), 0))::text as locked
       from ledger_postings where account in ($1 || ':main', $1 || ':locked') and currency_id = $2
         and command_seq is null`,
      args.slice(0, 2),
    );
    return {
      uid: user.uid,
      currency: q.currency,
      opening: opening.rows[0],
      rows: rows.rows.map(entity),
      total: counted.rows[0].n,
    };
  });
}

/** The columns of the statement CSV, in order. */
export const STATEMENT_CSV_COLUMNS = [
  'command',
  'at',
  'cause',
  'ref',
  'balance_change',
  'locked_change',
  'balance',
  'locked',
] as const satisfies readonly (keyof StatementRowEntity)[];

/** A whole statement as CSV (RFC 4180, CRLF): a header, the opening balances, then every movement. */
export async function statementCsv(
  db: pg.Pool,
  user: { id: string; uid: string },
  q: Omit<StatementQuery, 'page' | 'limit'>,
): Promise<string> {
  const lines = [STATEMENT_CSV_COLUMNS.join(',')];
  let opening: StatementEntity['opening'] | undefined;
  for (let page = 1; ; page++) {
    const part = await accountStatement(db, user, { ...q, page, limit: 1000 });
    if (!opening) {
      opening = part.opening;
      lines.push(['', '', 'opening', '', '', '', opening.balance, opening.locked].join(','));
    }
    for (const row of part.rows)
      lines.push(STATEMENT_CSV_COLUMNS.map((c) => csvField(row[c] === null ? '' : String(row[c]))).join(','));
    if (part.rows.length < 1000) break;
  }
  return `${lines.join('\r\n')}\r\n`;
}
