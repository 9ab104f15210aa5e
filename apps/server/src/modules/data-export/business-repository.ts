import type pg from 'pg';
import type { Keyset } from '../../db/keyset.ts';
import type { WalkedTable } from './repository.ts';

/**
 * The queries of the export's business parts (business-sections.ts): EUR bank withdrawals, SEPA bank deposits,
 * mass payout files and their rows, the company with its representatives and documents, and the account closure.
 * Every query is by the signed-in user's id; amounts are exact decimal strings (`trim_scale`, no trailing zeros).
 * A company document is listed by name, type and date, never its bytes (they may show other people's identity).
 */

/** A row of an export section: its columns as the section lists them, written as they are to CSV and JSON. */
export type ExportRow = Record<string, unknown>;

/** A row of a table walked by id, with the id the walk goes on from. */
export type CursorRow = ExportRow & { cursor_id: string };

/** The user's rows of a table walked by id: `select` names the columns, `from` the table with alias `t`. */
interface WalkedQuery {
  select: string;
  from: string;
  /** The owner's condition on `$1`. */
  where: string;
  /** The table itself, whose newest id ends the walk. */
  table: WalkedTable;
}

const WALKED = {
  'fiat-withdrawals': {
    select: `t.id::int, t.currency_id as currency, trim_scale(t.amount)::text as amount,
               trim_scale(t.fee)::text as fee, t.iban, t.holder, t.state, t.bank_ref, t.created_at, t.updated_at`,
    from: 'fiat_withdrawals t',
    where: 't.user_id = $1',
    table: 'fiat_withdrawals',
  },
  // The transfers the bank reported that were assigned to the user (credited, or waiting on their account).
  'bank-deposits': {
    select: `t.id::int, t.bank_transaction_id, lower(t.currency) as currency, trim_scale(t.amount)::text as amount,
               t.debtor_name, t.debtor_iban, t.remittance_information, t.creditor_reference, t.end_to_end_id,
               t.booking_date::text as booking_date, t.state, t.created_at`,
    from: 'bank_transfers t',
    where: 't.user_id = $1',
    table: 'bank_transfers',
  },
  'payout-files': {
    select: `t.id::int, t.file_name, encode(t.sha256, 'hex') as sha256, t.row_count, t.state, t.created_at,
               t.executed_at`,
    from: 'payout_files t',
    where: 't.user_id = $1',
    table: 'payout_files',
  },
} as const satisfies Record<string, WalkedQuery>;

/** The business sections walked by id. */
export type WalkedSection = keyof typeof WALKED;

/** The table a walked section reads (its newest id fixes the walk's end). */
export function walkedTable(section: WalkedSection): WalkedTable {
  return WALKED[section].table;
}

/** A {@link Keyset} page of the user's rows of a walked section, oldest first. */
export async function walkedPage(
  db: pg.Pool,
  section: WalkedSection,
  userId: string,
  keys: Keyset,
): Promise<CursorRow[]> {
  const query = WALKED[section];
  return (
    await db.query<CursorRow>(
      `select t.id as cursor_id, ${query.select} from ${query.from}
          where ${query.where} and t.id > $2 and t.id <= $3 order by t.id limit $4`,
      [userId, keys.after, keys.upTo, keys.limit],
    )
  ).rows;
}

/** The ids of the user's payout files, oldest first. */
export async function payoutFileIds(db: pg.Pool, userId: string): Promise<number[]> {
  return (
    await db.query<{ id: number }>('select id::int from payout_files where user_id = $1 order by id', [
      userId,
    ])
  ).rows.map((r) => r.id);
}

/** The rows of one of the user's payout files, in the file's order (another user's file gives none). */
export async function payoutRowsOf(db: pg.Pool, userId: string, fileId: number): Promise<ExportRow[]> {
  return (
    await db.query<ExportRow>(
      `select r.file_id::int, r.line, r.currency_id as currency, r.blockchain_key, r.recipient,
                      trim_scale(r.amount)::text as amount, trim_scale(r.fee)::text as fee, r.reference, r.state,
                      r.error, r.withdrawal_id::int
                 from payout_rows r join payout_files f on f.id = r.file_id
                where r.file_id = $2 and f.user_id = $1 order by r.line`,
      [userId, fileId],
    )
  ).rows;
}

/** The sections read whole in one query (a few rows at most: one company, one closure or a few), by `$1`. */
const WHOLE = {
  company: `select name, registration_number, country, address, review_state, review_comment, submitted_at, created_at,
              updated_at from companies where user_id = $1`,
  'company-representatives': `select r.position, r.name, r.role, trim_scale(r.ownership)::text as ownership
         from company_representatives r join companies c on c.id = r.company_id
        where c.user_id = $1 order by r.position`,
  'company-documents': `select d.id::int, d.doc_type, d.issued_on::text as issued_on, d.file_name, d.mime_type, d.size_bytes,
              d.created_at
         from company_documents d join companies c on c.id = d.company_id
        where c.user_id = $1 order by d.id`,
  'account-closure': `select c.id::int, c.state, c.requested_at, c.conversion_due_at, c.canceled_at, c.closed_at,
              c.correspondence_erase_at, c.records_erase_at,
              array(select w.withdrawal_id::int from account_closure_withdrawals w
                     where w.closure_id = c.id order by w.withdrawal_id) as withdrawal_ids
         from account_closures c where c.user_id = $1 order by c.id`,
} as const;

/** The business sections read whole. */
export type WholeSection = keyof typeof WHOLE;

/** The user's rows of a section read whole. */
export async function wholeRows(db: pg.Pool, section: WholeSection, userId: string): Promise<ExportRow[]> {
  return (await db.query<ExportRow>(WHOLE[section], [userId])).rows;
}
