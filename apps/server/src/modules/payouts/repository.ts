import { formatUnits, type PayoutFile, type PayoutRow } from '@exchange/shared';
import type pg from 'pg';
import type { NoRows } from '../../db/pool.ts';
import { isoSql } from '../identity/users-repository.ts';
import type { CheckedRow } from './validate.ts';

/** A row to place, as stored. */
export interface StoredRow {
  line: number;
  currency: string;
  blockchainKey: string;
  recipient: string;
  internalUserId: number | null;
  /** Decimal texts, as stored. */
  amount: string;
  fee: string;
}

/** The file's own columns and its totals and progress, computed from its rows. */
const FILE_SQL = `
  select f.id, f.file_name, encode(f.sha256, 'hex') as sha256, f.state, f.row_count,
    ${isoSql('f.created_at')} as created_at,
    case when f.executed_at is null then null else ${isoSql('f.executed_at')} end as executed_at,
    (select coalesce(json_agg(json_build_object('currency', t.currency_id, 'amount', t.amount, 'fees', t.fees)
                     order by t.currency_id), '[]')
       from (select currency_id, trim_scale(sum(amount))::text as amount, trim_scale(sum(fee))::text as fees
               from payout_rows where file_id = f.id group by currency_id) t) as totals,
    (select coalesce(json_object_agg(s.state, s.n), '{}')
       from (select case when r.state = 'placed' then w.state else r.state end as state, count(*)::int as n
               from payout_rows r left join withdrawals w on w.id = r.withdrawal_id
              where r.file_id = f.id group by 1) s) as progress
  from payout_files f`;

/** A row of {@link FILE_SQL}: times as ISO text, the totals and progress as parsed JSON. */
interface FileSqlRow {
  id: string;
  file_name: string;
  sha256: string;
  state: PayoutFile['state'];
  row_count: number;
  created_at: string;
  executed_at: string | null;
  totals: PayoutFile['totals'];
  progress: PayoutFile['progress'];
}

/** The user's files, newest first (at most `limit`). */
export async function listFiles(db: pg.Pool, userId: number, limit: number): Promise<PayoutFile[]> {
  return (
    await db.query<FileSqlRow>(`${FILE_SQL} where f.user_id = $1 order by f.id desc limit $2`, [
      userId,
      limit,
    ])
  ).rows.map(fileOf);
}

/** One file of the user's; null when there is none with that id or it is someone else's. */
export async function findFile(db: pg.Pool, userId: number, id: number): Promise<PayoutFile | null> {
  const row = (await db.query<FileSqlRow>(`${FILE_SQL} where f.id = $1 and f.user_id = $2`, [id, userId]))
    .rows[0];
  return row ? fileOf(row) : null;
}

/** The rows of a file (the caller checked that it is the user's), each with its withdrawal's state. */
export async function fileRows(db: pg.Pool, fileId: number): Promise<PayoutRow[]> {
  const rows = await db.query<{
    line: number;
    currency_id: string;
    blockchain_key: string;
    recipient: string;
    internal: boolean;
    amount: string;
    fee: string;
    reference: string;
    state: string;
    error: string | null;
    withdrawal_id: string | null;
    txid: string | null;
  }>(
    `select r.line, r.currency_id, r.blockchain_key, r.recipient, r.internal_user_id is not null as internal,
       trim_scale(r.amount)::text as amount, trim_scale(r.fee)::text as fee, r.reference,
       case when r.state = 'placed' then w.state else r.state end as state,
       coalesce(r.error, case when w.state in ('failed', 'rejected', 'errored') then w.error end) as error,
       r.withdrawal_id, w.txid
     from payout_rows r left join withdrawals w on w.id = r.withdrawal_id
     where r.file_id = $1 order by r.line`,
    [fileId],
  );
  return rows.rows.map((r) => ({
    row: r.line,
    currency: r.currency_id,
    blockchain_key: r.blockchain_key,
    recipient: r.recipient,
    kind: r.internal ? 'internal' : 'address',
    amount: r.amount,
    fee: r.fee,
    reference: r.reference,
    state: r.state,
    error: r.error ?? null,
    withdrawal_id: r.withdrawal_id === null ? null : Number(r.withdrawal_id),
    txid: r.txid ?? null,
  }));
}

/** The id of the user's file with these bytes, if one exists. */
export async function fileWithHash(db: pg.Pool, userId: number, sha256: Buffer): Promise<number | null> {
  const row = (
    await db.query<{ id: string }>('select id from payout_files where user_id = $1 and sha256 = $2', [
      userId,
      sha256,
    ])
  ).rows[0];
  return row ? Number(row.id) : null;
}

/**
 * Stores a validated file and its rows in one transaction (the rows in one statement); null when a file with the
 * same bytes was stored meanwhile (the unique index decides between two uploads of one file).
 */
export async function insertFile(
  db: pg.Pool,
  userId: number,
  sha256: Buffer,
  fileName: string,
  rows: CheckedRow[],
): Promise<number | null> {
  const client = await db.connect();
  try {
    await client.query('begin');
    const file = await client.query<{ id: string }>(
      `insert into payout_files (user_id, sha256, file_name, row_count) values ($1, $2, $3, $4)
       on conflict (user_id, sha256) do nothing returning id`,
      [userId, sha256, fileName, rows.length],
    );
    if (file.rowCount === 0) {
      await client.query('rollback');
      return null;
    }
    const id = Number(file.rows[0]!.id);
    await client.query(
      `insert into payout_rows (file_id, line, currency_id, blockchain_key, recipient, internal_user_id, amount, fee, reference)
       select $1, * from unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::numeric[], $8::numeric[], $9::text[])`,
      [
        id,
        rows.map((r) => r.line),
        rows.map((r) => r.currency),
        rows.map((r) => r.blockchainKey),
        rows.map((r) => r.recipient),
        rows.map((r) => r.internalUserId),
        rows.map((r) => formatUnits(r.amount, r.precision)),
        rows.map((r) => formatUnits(r.fee, r.precision)),
        rows.map((r) => r.reference),
      ],
    );
    await client.query('commit');
    return id;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** Deletes a file of the user's that was never executed; false when there is none such. */
export async function deleteValidated(db: pg.Pool, userId: number, id: number): Promise<boolean> {
  const deleted = await db.query<NoRows>(
    `delete from payout_files where id = $1 and user_id = $2 and state = 'validated'`,
    [id, userId],
  );
  return deleted.rowCount === 1;
}

/** What a file's rows need per currency (amounts and fees), in decimal text. */
export async function fileNeeds(
  db: pg.Pool,
  fileId: number,
): Promise<{ currency: string; amount: string; fee: string }[]> {
  return (
    await db.query<{ currency: string; amount: string; fee: string }>(
      `select currency_id as currency, sum(amount)::text as amount, sum(fee)::text as fee
       from payout_rows where file_id = $1 group by currency_id`,
      [fileId],
    )
  ).rows;
}

/** Moves the user's file from `validated` to `executing`, once; false when it was not waiting. */
export async function startExecuting(db: pg.Pool, userId: number, id: number): Promise<boolean> {
  const updated = await db.query<NoRows>(
    `update payout_files set state = 'executing', executed_at = now(), run_at = now()
     where id = $1 and user_id = $2 and state = 'validated'`,
    [id, userId],
  );
  return updated.rowCount === 1;
}

/**
 * Claims the file's next pending row for placing (`placing`), or null when none is left. A row is claimed once:
 * two runners of one file never place the same row.
 */
export async function claimRow(db: pg.Pool, fileId: number): Promise<StoredRow | null> {
  const row = (
    await db.query<{
      line: number;
      currency_id: string;
      blockchain_key: string;
      recipient: string;
      internal_user_id: string | null;
      amount: string;
      fee: string;
    }>(
      `update payout_rows set state = 'placing'
       where (file_id, line) = (select file_id, line from payout_rows where file_id = $1 and state = 'pending'
                                order by line limit 1 for update skip locked)
       returning line, currency_id, blockchain_key, recipient, internal_user_id, amount::text, fee::text`,
      [fileId],
    )
  ).rows[0];
  if (!row) return null;
  return {
    line: row.line,
    currency: row.currency_id,
    blockchainKey: row.blockchain_key,
    recipient: row.recipient,
    internalUserId: row.internal_user_id === null ? null : Number(row.internal_user_id),
    amount: row.amount,
    fee: row.fee,
  };
}

/** Records how placing a row ended (its withdrawal, or why it was refused or is in doubt). */
export async function finishRow(
  db: pg.Pool,
  fileId: number,
  line: number,
  outcome: { state: 'placed'; withdrawalId: number } | { state: 'refused' | 'interrupted'; error: string },
): Promise<void> {
  await db.query(
    // The file's runner shows it is alive with each row it finishes (see adoptStopped).
    `with finished as (
       update payout_rows set state = $3, withdrawal_id = $4, error = $5 where file_id = $1 and line = $2)
     update payout_files set run_at = now() where id = $1`,
    [
      fileId,
      line,
      outcome.state,
      outcome.state === 'placed' ? outcome.withdrawalId : null,
      outcome.state === 'placed' ? null : outcome.error.slice(0, 300),
    ],
  );
}

/**
 * Takes over an executing file whose runner has been silent for a minute (its process stopped): true for the one
 * caller that gets it. Its rows left `placing` become `interrupted` (their withdrawal may exist: an operator
 * checks, they are never placed again); its pending rows are the new runner's.
 */
export async function adoptStopped(db: pg.Pool, userId: number, fileId: number): Promise<boolean> {
  const taken = await db.query<NoRows>(
    `update payout_files set run_at = now()
     where id = $1 and user_id = $2 and state = 'executing' and run_at < now() - interval '1 minute'`,
    [fileId, userId],
  );
  if (taken.rowCount !== 1) return false;
  await db.query(
    `update payout_rows set state = 'interrupted', error = 'the process stopped while placing it'
     where file_id = $1 and state = 'placing'`,
    [fileId],
  );
  return true;
}

/** Marks the file executed once no row waits any more. */
export async function finishFile(db: pg.Pool, fileId: number): Promise<void> {
  await db.query(
    `update payout_files set state = 'executed' where id = $1 and state = 'executing'
       and not exists (select 1 from payout_rows where file_id = $1 and state in ('pending', 'placing'))`,
    [fileId],
  );
}

function fileOf(r: FileSqlRow): PayoutFile {
  return {
    id: Number(r.id),
    file_name: r.file_name,
    sha256: r.sha256,
    state: r.state,
    row_count: r.row_count,
    totals: r.totals,
    progress: r.progress,
    created_at: r.created_at,
    executed_at: r.executed_at,
  };
}
