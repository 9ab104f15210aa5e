import type pg from 'pg';
import {
  type ExportRow,
  payoutFileIds,
  payoutRowsOf,
  type WalkedSection,
  type WholeSection,
  walkedPage,
  walkedTable,
  wholeRows,
} from './business-repository.ts';
import type { Section } from './files.ts';
import { newestId } from './repository.ts';

/**
 * The export's parts for the money that moves through a bank and for business accounts (issue 31, parts 3 and 4):
 * EUR bank withdrawals, SEPA bank deposits, mass payout files and their rows, the company with its representatives
 * and documents, and the account closure, with the queries of business-repository.ts; dates ISO 8601.
 */

/** Rows per database page, as the other walked sections. */
const PAGE = 500;

/**
 * A section of the user's rows of a table walked by id, oldest first; the walk's end is fixed when the first file
 * begins, so the CSV and the JSON hold the same rows.
 */
function walkedById(db: pg.Pool, userId: string, name: WalkedSection, columns: readonly string[]): Section {
  let upTo: number | undefined;
  return {
    name,
    columns,
    async *batches() {
      upTo ??= await newestId(db, walkedTable(name));
      for (let after = 0; ; ) {
        const rows = await walkedPage(db, name, userId, { after, upTo, limit: PAGE });
        if (rows.length > 0) yield rows.map(({ cursor_id: _cursor, ...row }) => row);
        const last = rows.at(-1);
        if (!last || rows.length < PAGE) return;
        after = Number(last.cursor_id);
      }
    },
  };
}

/** A section read whole in one query (a few rows at most: one company, one closure or a few). */
function whole(db: pg.Pool, name: WholeSection, columns: readonly string[], userId: string): Section {
  return {
    name,
    columns,
    async *batches() {
      const rows: ExportRow[] = await wholeRows(db, name, userId);
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
    walkedById(db, userId, 'fiat-withdrawals', FIAT_WITHDRAWALS),
    walkedById(db, userId, 'bank-deposits', BANK_DEPOSITS),
    walkedById(db, userId, 'payout-files', PAYOUT_FILES),
    {
      name: 'payout-rows',
      columns: PAYOUT_ROWS,
      // File by file (each at most 1,000 rows), in the files' order.
      async *batches() {
        for (const fileId of await payoutFileIds(db, userId)) {
          const rows = await payoutRowsOf(db, userId, fileId);
          if (rows.length > 0) yield rows;
        }
      },
    },
    whole(db, 'company', COMPANY, userId),
    whole(db, 'company-representatives', REPRESENTATIVES, userId),
    whole(db, 'company-documents', COMPANY_DOCUMENTS, userId),
    whole(db, 'account-closure', CLOSURE, userId),
  ];
}
