import { randomBytes } from 'node:crypto';
import type { BankSimulatorCredentials, CreditNotification } from '@exchange/server/provider-kit';
import type pg from 'pg';
import { storedCredentials } from '../credentials.ts';

/** The simulated bank's secrets, made once and kept in `app_secrets` (like the other simulators'). */
export type { BankSimulatorCredentials };

/** Loads the simulator's credentials, creating them on first use. */
export async function loadBankSimulatorCredentials(db: pg.Pool): Promise<BankSimulatorCredentials> {
  const fresh: BankSimulatorCredentials = {
    apiUsername: `banksim_${randomBytes(6).toString('hex')}`,
    apiPassword: randomBytes(24).toString('base64url'),
    webhookSecret: randomBytes(32).toString('base64url'),
  };
  return storedCredentials<BankSimulatorCredentials>(db, 'bank_simulator', fresh);
}

/** A transfer someone sends into the collection account (the developer endpoint's body). */
export interface SimTransferInput {
  idempotencyKey: string;
  creditorIban: string;
  /** Cents. */
  cents: bigint;
  currency: string;
  debtorName: string;
  debtorIban: string;
  remittance: string | null;
  creditorReference: string | null;
  endToEndId: string | null;
}

/** A booked entry as the simulator's API shows it. */
export interface SimEntry {
  transaction_id: string;
  amount: string;
  currency: string;
  debtor_name: string;
  debtor_iban: string;
  creditor_iban: string;
  remittance_information: string | null;
  creditor_reference: string | null;
  end_to_end_id: string;
  booking_date: string;
}

const ENTRY = `transaction_id, amount::text as amount, currency, debtor_name, debtor_iban, creditor_iban,
  remittance_unstructured as remittance_information, creditor_reference, end_to_end_id,
  to_char(booking_date, 'YYYY-MM-DD') as booking_date`;

/**
 * Books an incoming transfer on the collection account and queues its camt.054-shaped notification, in one
 * transaction. A repeated idempotency key books nothing and returns the first entry (`created: false`).
 */
export async function bookIncomingTransfer(
  db: pg.Pool,
  input: SimTransferInput,
): Promise<{ entry: SimEntry; created: boolean }> {
  const client = await db.connect();
  try {
    await client.query('begin');
    const transactionId = `SIMBANK${Date.now().toString(36).toUpperCase()}${randomBytes(5).toString('hex').toUpperCase()}`;
    const inserted = (
      await client.query(
        `insert into banksim_incoming (transaction_id, idempotency_key, creditor_iban, amount, currency, debtor_name,
           debtor_iban, remittance_unstructured, creditor_reference, end_to_end_id, booking_date)
         values ($1, $2, $3, ($4::numeric / 100), $5, $6, $7, $8, $9, $10, current_date)
         on conflict (idempotency_key) do nothing
         returning ${ENTRY}`,
        [
          transactionId,
          input.idempotencyKey,
          input.creditorIban,
          input.cents.toString(),
          input.currency,
          input.debtorName,
          input.debtorIban,
          input.remittance,
          input.creditorReference,
          input.endToEndId ?? 'NOTPROVIDED',
        ],
      )
    ).rows[0] as SimEntry | undefined;
    if (!inserted) {
      await client.query('rollback');
      const first = (
        await db.query(`select ${ENTRY} from banksim_incoming where idempotency_key = $1`, [
          input.idempotencyKey,
        ])
      ).rows[0] as SimEntry;
      return { entry: first, created: false };
    }
    await client.query('insert into banksim_webhooks (payload) values ($1)', [
      JSON.stringify(notificationOf(inserted)),
    ]);
    await client.query('commit');
    return { entry: inserted, created: true };
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** The camt.054 notification (in JSON) of one booked credit entry. */
export function notificationOf(entry: SimEntry): CreditNotification {
  return {
    notification_id: `NTF-${entry.transaction_id}`,
    account: { iban: entry.creditor_iban },
    entries: [
      {
        acct_svcr_ref: entry.transaction_id,
        credit_debit: 'CRDT',
        status: 'BOOK',
        amount: entry.amount,
        currency: entry.currency,
        booking_date: entry.booking_date,
        end_to_end_id: entry.end_to_end_id,
        debtor: { name: entry.debtor_name, iban: entry.debtor_iban },
        remittance: {
          unstructured: entry.remittance_information,
          creditor_reference: entry.creditor_reference,
        },
      },
    ],
  };
}
