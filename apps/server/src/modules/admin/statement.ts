import type { StatementEntity, StatementQuery, StatementRowEntity } from '@exchange/shared';
import type pg from 'pg';
import { withReadSnapshot } from '../../db/pool.ts';
import { csvField } from './ledger.ts';
import {
  countStatementMovements,
  type MovementRow,
  openingBalances,
  statementMovements,
} from './ledger-repository.ts';

/** A movement as the statement shows it. */
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

/**
 * A user's movements in one currency, from the ledger: the postings on the user's available (`u:<id>:main`) and
 * held (`u:<id>:locked`) accounts, one row per command and cause (a trade, its fee, an order's hold, a deposit ...),
 * oldest first, with the balances after each row. Postings from before the journal named no command: they are
 * summed into the opening balances. Read in one snapshot, so the running balances agree with the rows.
 *
 * One page of it (oldest first), with the number of movements in the window for `Total`.
 */
export async function accountStatement(
  db: pg.Pool,
  user: { id: string; uid: string },
  q: StatementQuery,
): Promise<StatementEntity> {
  return withReadSnapshot(db, async (client) => {
    const span = { account: `u:${user.id}`, currency: q.currency, from: q.from ?? null, to: q.to ?? null };
    // One after the other: one connection runs one query at a time (node-postgres only queued the others, and
    // deprecates that); the snapshot keeps the three reads consistent all the same.
    const rows = await statementMovements(client, span, q.limit, (q.page - 1) * q.limit);
    const total = await countStatementMovements(client, span);
    const opening = await openingBalances(client, span.account, span.currency);
    return { uid: user.uid, currency: q.currency, opening, rows: rows.map(entity), total };
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
