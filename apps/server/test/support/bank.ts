import type { CreditNotification } from '../../src/adapters/bank/port.ts';
import { bankWebhookHeaders } from '../../src/adapters/bank/signing.ts';
import type { TestApp } from './app.ts';

let sequence = 0;

/**
 * Delivers a bank credit notification of one booked EUR transfer to the app's webhook, signed with the bank
 * simulator's secret, as the simulator would (for tests whose app does not listen).
 */
export async function deliverBankCredit(
  t: TestApp,
  transfer: { amount: string; reference?: string | null; remittance?: string | null },
) {
  const secret = JSON.parse(
    (await t.db.pool.query(`select value from app_secrets where name = 'bank_simulator'`)).rows[0].value,
  ).webhookSecret as string;
  const id = `TEST${Date.now()}${++sequence}`;
  const notification: CreditNotification = {
    notification_id: `NTF-${id}`,
    account: { iban: t.deps.config.bank.collection.iban },
    entries: [
      {
        acct_svcr_ref: id,
        credit_debit: 'CRDT',
        status: 'BOOK',
        amount: transfer.amount,
        currency: 'EUR',
        booking_date: new Date().toISOString().slice(0, 10),
        end_to_end_id: 'NOTPROVIDED',
        debtor: { name: 'ACME GmbH', iban: 'FR1420041010050500013M02606' },
        remittance: {
          unstructured: transfer.remittance ?? null,
          creditor_reference: transfer.reference ?? null,
        },
      },
    ],
  };
  const payload = JSON.stringify(notification);
  return t.app.inject({
    method: 'POST',
    url: '/api/v2/peatio/bank/notifications',
    headers: bankWebhookHeaders(secret, payload),
    payload,
  });
}
