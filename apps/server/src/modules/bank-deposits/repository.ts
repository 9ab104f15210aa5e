import type { AdminBankTransfer } from '@exchange/shared';
import type pg from 'pg';
import type { IncomingCreditTransfer } from '../../adapters/bank/port.ts';
import type { NoRows, Tx } from '../../db/pool.ts';
import { newReference } from './reference.ts';

type Db = pg.Pool | Tx;

/** A transfer row as the service works with it. */
export interface TransferRow {
  id: string;
  bank_transaction_id: string;
  amount: string;
  currency: string;
  debtor_iban: string;
  remittance_information: string | null;
  creditor_reference: string | null;
  state: 'received' | 'crediting' | 'credited' | 'queued' | 'returned';
  user_id: string | null;
}

const TRANSFER = `id, bank_transaction_id, amount::text as amount, currency, debtor_iban, remittance_information,
  creditor_reference, state, user_id`;

/** The user's reference, made on first use (unique: a collision of random bodies is simply drawn again). */
export async function referenceFor(db: pg.Pool, userId: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = (
      await db.query<{ reference: string }>(
        `with made as (insert into bank_deposit_references (user_id, reference) values ($1, $2)
           on conflict do nothing returning reference)
         select reference from made union all select reference from bank_deposit_references where user_id = $1`,
        [userId, newReference()],
      )
    ).rows[0];
    if (row) return row.reference;
  }
  throw new Error('no free bank deposit reference');
}

/** The owner of a reference, if any. */
export async function ownerOfReference(db: Db, reference: string): Promise<string | null> {
  const row = (
    await db.query<{ user_id: string }>('select user_id from bank_deposit_references where reference = $1', [
      reference,
    ])
  ).rows[0];
  return row?.user_id ?? null;
}

/**
 * Records a transfer the bank reported, once per bank transaction id; returns its row, new or as it was
 * (`created` false: the bank reported it before).
 */
export async function recordTransfer(
  db: Db,
  t: IncomingCreditTransfer,
): Promise<{ row: TransferRow; created: boolean }> {
  const inserted = (
    await db.query<TransferRow>(
      `insert into bank_transfers (bank_transaction_id, amount, currency, debtor_name, debtor_iban,
         remittance_information, creditor_reference, end_to_end_id, booking_date)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (bank_transaction_id) do nothing returning ${TRANSFER}`,
      [
        t.transactionId,
        t.amount,
        t.currency,
        t.debtorName,
        t.debtorIban,
        t.remittanceInformation,
        t.creditorReference,
        t.endToEndId,
        t.bookingDate,
      ],
    )
  ).rows[0];
  if (inserted) return { row: inserted, created: true };
  const row = (
    await db.query<TransferRow>(`select ${TRANSFER} from bank_transfers where bank_transaction_id = $1`, [
      t.transactionId,
    ])
  ).rows[0]!;
  return { row, created: false };
}

/** Puts a transfer in the operator queue (only one not yet credited, queued or returned). */
export async function queueTransfer(db: Db, id: string, reason: string): Promise<void> {
  await db.query(
    `update bank_transfers set state = 'queued', queue_reason = $2, updated_at = now()
     where id = $1 and state = 'received'`,
    [id, reason],
  );
}

/**
 * Claims a transfer for crediting to `userId` (by an operator: `decidedBy`); null when it is not in a state that
 * may be credited (already credited or returned, or queued when the caller is not an operator).
 */
export async function claimForCredit(
  db: Db,
  id: string,
  userId: string,
  decided: { by: string; note: string } | null,
  /** Now on the app's clock: a staff decision's time. */
  at: Date,
): Promise<TransferRow | null> {
  const states = decided ? ['queued'] : ['received', 'crediting'];
  const row = (
    await db.query<TransferRow>(
      `update bank_transfers set state = 'crediting', user_id = $2, decided_by = coalesce($4, decided_by),
         decided_at = case when $4::bigint is null then decided_at else $6::timestamptz end,
         decision_note = coalesce($5, decision_note), updated_at = now()
       where id = $1 and state = any($3) and (user_id is null or user_id = $2 or $4::bigint is not null)
       returning ${TRANSFER}`,
      [id, userId, states, decided?.by ?? null, decided?.note ?? null, at],
    )
  ).rows[0];
  return row ?? null;
}

/**
 * After the core credited it: the user's deposit row (once per transfer), credited at `at` (the app's clock, on
 * which the withdrawal review's pass-through window reads it), and the transfer marked credited, in one
 * transaction. Returns the deposit's id.
 */
export async function recordCredit(db: Db, t: TransferRow, userId: string, at: Date): Promise<number> {
  await db.query(
    `insert into deposits (user_id, currency_id, blockchain_key, address, txid, txout, amount, state, credited_at,
       bank_transfer_id)
     values ($1, 'eur', null, $2, $3, 0, $4, 'accepted', $6, $5)
     on conflict (bank_transfer_id) do nothing`,
    [userId, t.debtor_iban, t.bank_transaction_id, t.amount, t.id, at],
  );
  await db.query(
    `update bank_transfers set state = 'credited', updated_at = now() where id = $1 and state = 'crediting'`,
    [t.id],
  );
  const row = (await db.query<{ id: string }>('select id from deposits where bank_transfer_id = $1', [t.id]))
    .rows[0]!;
  return Number(row.id);
}

/** Marks a queued transfer for return to its sender, decided at `at`; false when it is not queued. */
export async function markReturned(
  db: Db,
  id: number,
  staffId: string,
  note: string,
  at: Date,
): Promise<boolean> {
  const result = await db.query<NoRows>(
    `update bank_transfers set state = 'returned', decided_by = $2, decided_at = $4, decision_note = $3,
       updated_at = now() where id = $1 and state = 'queued'`,
    [id, staffId, note, at],
  );
  return result.rowCount === 1;
}

const ADMIN_SELECT = `select t.id::int, t.bank_transaction_id, trim_scale(t.amount)::text as amount, t.currency,
  t.debtor_name, t.debtor_iban, t.remittance_information, t.creditor_reference, t.end_to_end_id,
  to_char(t.booking_date, 'YYYY-MM-DD') as booking_date, t.state, t.queue_reason, u.uid, s.email as decided_by,
  t.decision_note, to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
  from bank_transfers t left join users u on u.id = t.user_id left join users s on s.id = t.decided_by`;

/** One transfer in the console's shape. */
export async function adminTransfer(db: Db, id: number): Promise<AdminBankTransfer | null> {
  return (await db.query<AdminBankTransfer>(`${ADMIN_SELECT} where t.id = $1`, [id])).rows[0] ?? null;
}

/** The console's list: the queue (oldest first) or the others (newest first), with the total. */
export async function listAdminTransfers(
  db: pg.Pool,
  q: { state: 'queued' | 'credited' | 'returned' | 'all'; page: number; limit: number },
): Promise<{ items: AdminBankTransfer[]; total: number }> {
  const where = q.state === 'all' ? '' : 'where t.state = $1';
  const params = q.state === 'all' ? [] : [q.state];
  const order = q.state === 'queued' ? 'asc' : 'desc';
  const n = params.length;
  const [rows, count] = await Promise.all([
    db.query<AdminBankTransfer>(
      `${ADMIN_SELECT} ${where} order by t.id ${order} limit $${n + 1} offset $${n + 2}`,
      [...params, q.limit, (q.page - 1) * q.limit],
    ),
    db.query<{ total: number }>(`select count(*)::int as total from bank_transfers t ${where}`, params),
  ]);
  return { items: rows.rows, total: count.rows[0]!.total };
}
