import type pg from 'pg';
import type { Keyset } from '../../db/keyset.ts';
import type { Section } from './files.ts';

/**
 * The export's parts for the money that moves through a bank and for business accounts (issue 31, parts 3 and 4):
 * EUR bank withdrawals, SEPA bank deposits, mass payout files and their rows, the company with its representatives
 * and documents, and the account closure. Every query is by the signed-in user's id; amounts are exact decimal
 * strings (`trim_scale`, no trailing zeros), dates ISO 8601. A company document is listed by name, type and date,
 * never its bytes (they may show other people's identity).
 */

type Row = Record<string, unknown>;

/** Rows per database page, as the other walked sections. */
const PAGE = 500;

/**
 * A section of the user's rows of a table walked by id (`select` names the columns, `from` the table with alias
 * `t`, `where` the owner's condition on `$1`), oldest first; the walk's end is fixed when the first file begins,
 * so the CSV and the JSON hold the same rows.
 */
function walkedById(
  db: pg.Pool,
  userId: string,
  name: string,
  columns: readonly string[],
  query: { select: string; from: string; where: string },
): Section {
  let upTo: number | undefined;
  const page = async (keys: Keyset): Promise<Row[]> =>
    (
      await db.query(
        `select t.id as cursor_id, ${query.select} from ${query.from}
          where ${query.where} and t.id > $2 and t.id <= $3 order by t.id limit $4`,
        [userId, keys.after, keys.upTo, keys.limit],
      )
    ).rows;
  return {
    name,
    columns,
    async *batches() {
      upTo ??= Number(
        (await db.query(`select coalesce(max(t.id), 0)::text as id from ${query.from}`)).rows[0].id,
      );
      for (let after = 0; ; ) {
        const rows = await page({ after, upTo, limit: PAGE });
        if (rows.length > 0) yield rows.map(({ cursor_id: _cursor, ...row }) => row);
        const last = rows.at(-1);
        if (!last || rows.length < PAGE) return;
        after = Number(last.cursor_id);
      }
    },
  };
}

/** A section read whole in one query (a few rows at most: one company, one closure or a few). */
function whole(db: pg.Pool, name: string, columns: readonly string[], sql: string, userId: string): Section {
  return {
    name,
    columns,
    async *batches() {
      const rows = (await db.query(sql, [userId])).rows as Row[];
      if (rows.length > 0) yield rows;
    },
  };
}

const FIAT_WITHDRAWALS = [
  'id',
  'currency',
  'amount',
  'fee',
  'iban',
  'holder',
  'state',
  'bank_ref',
  'created_at',
  'updated_at',
];
const BANK_DEPOSITS = [
  'id',
  'bank_transaction_id',
  'currency',
  'amount',
  'debtor_name',
  'debtor_iban',
  'remittance_information',
  'creditor_reference',
  'end_to_end_id',
  'booking_date',
  'state',
  'created_at',
];
const PAYOUT_FILES = ['id', 'file_name', 'sha256', 'row_count', 'state', 'created_at', 'executed_at'];
const PAYOUT_ROWS = [
  'file_id',
  'line',
  'currency',
  'blockchain_key',
  'recipient',
  'amount',
  'fee',
  'reference',
  'state',
  'error',
  'withdrawal_id',
];
const COMPANY = [
  'name',
  'registration_number',
  'country',
  'address',
  'review_state',
  'review_comment',
  'submitted_at',
  'created_at',
  'updated_at',
];
const REPRESENTATIVES = ['position', 'name', 'role', 'ownership'];
const COMPANY_DOCUMENTS = [
  'id',
  'doc_type',
  'issued_on',
  'file_name',
  'mime_type',
  'size_bytes',
  'created_at',
];
const CLOSURE = [
  'id',
  'state',
  'requested_at',
  'conversion_due_at',
  'canceled_at',
  'closed_at',
  'correspondence_erase_at',
  'records_erase_at',
  'withdrawal_ids',
];

/** The sections, in the archive's order after the other tables. */
export function businessSections(db: pg.Pool, userId: string): Section[] {
  return [
    walkedById(db, userId, 'fiat-withdrawals', FIAT_WITHDRAWALS, {
      select: `t.id::int, t.currency_id as currency, trim_scale(t.amount)::text as amount,
               trim_scale(t.fee)::text as fee, t.iban, t.holder, t.state, t.bank_ref, t.created_at, t.updated_at`,
      from: 'fiat_withdrawals t',
      where: 't.user_id = $1',
    }),
    // The transfers the bank reported that were assigned to the user (credited, or waiting on their account).
    walkedById(db, userId, 'bank-deposits', BANK_DEPOSITS, {
      select: `t.id::int, t.bank_transaction_id, lower(t.currency) as currency, trim_scale(t.amount)::text as amount,
               t.debtor_name, t.debtor_iban, t.remittance_information, t.creditor_reference, t.end_to_end_id,
               t.booking_date::text as booking_date, t.state, t.created_at`,
      from: 'bank_transfers t',
      where: 't.user_id = $1',
    }),
    walkedById(db, userId, 'payout-files', PAYOUT_FILES, {
      select: `t.id::int, t.file_name, encode(t.sha256, 'hex') as sha256, t.row_count, t.state, t.created_at,
               t.executed_at`,
      from: 'payout_files t',
      where: 't.user_id = $1',
    }),
    {
      name: 'payout-rows',
      columns: PAYOUT_ROWS,
      // File by file (each at most 1,000 rows), in the files' order.
      async *batches() {
        const files = (
          await db.query('select id::int from payout_files where user_id = $1 order by id', [userId])
        ).rows as { id: number }[];
        for (const file of files) {
          const rows = (
            await db.query(
              `select r.file_id::int, r.line, r.currency_id as currency, r.blockchain_key, r.recipient,
                      trim_scale(r.amount)::text as amount, trim_scale(r.fee)::text as fee, r.reference, r.state,
                      r.error, r.withdrawal_id::int
                 from payout_rows r join payout_files f on f.id = r.file_id
                where r.file_id = $2 and f.user_id = $1 order by r.line`,
              [userId, file.id],
            )
          ).rows as Row[];
          if (rows.length > 0) yield rows;
        }
      },
    },
    whole(
      db,
      'company',
      COMPANY,
      `select name, registration_number, country, address, review_state, review_comment, submitted_at, created_at,
              updated_at from companies where user_id = $1`,
      userId,
    ),
    whole(
      db,
      'company-representatives',
      REPRESENTATIVES,
      `select r.position, r.name, r.role, trim_scale(r.ownership)::text as ownership
         from company_representatives r join companies c on c.id = r.company_id
        where c.user_id = $1 order by r.position`,
      userId,
    ),
    whole(
      db,
      'company-documents',
      COMPANY_DOCUMENTS,
      `select d.id::int, d.doc_type, d.issued_on::text as issued_on, d.file_name, d.mime_type, d.size_bytes,
              d.created_at
         from company_documents d join companies c on c.id = d.company_id
        where c.user_id = $1 order by d.id`,
      userId,
    ),
    whole(
      db,
      'account-closure',
      CLOSURE,
      `select c.id::int, c.state, c.requested_at, c.conversion_due_at, c.canceled_at, c.closed_at,
              c.correspondence_erase_at, c.records_erase_at,
              array(select w.withdrawal_id::int from account_closure_withdrawals w
                     where w.closure_id = c.id order by w.withdrawal_id) as withdrawal_ids
         from account_closures c where c.user_id = $1 order by c.id`,
      userId,
    ),
  ];
}
