import { toUnits } from '@exchange/shared';
import { expect } from 'vitest';
import { transactionMonitor } from '../../src/modules/compliance/monitoring/monitor.ts';
import type { TestApp } from './app.ts';

/** The app's transaction monitor, run by hand (the suites set AML_MONITOR_INTERVAL_MS=0). */
export const monitorOf = (t: TestApp) =>
  transactionMonitor({
    db: t.db.pool,
    core: t.deps.core,
    clock: t.clock,
    config: t.deps.config,
    log: console,
  });

let seq = 0;
/**
 * A credited EUR bank deposit of `amount` (a SEPA transfer from `iban`) as the bank module records it: the transfer,
 * its credit through the core (`bank-deposit:<id>`, so the ledger audit holds) and the deposit row. Returns the
 * deposit's id.
 */
export async function bankDeposit(
  t: TestApp,
  who: { id: number },
  amount: string,
  iban = 'DE89370400440532013000',
): Promise<number> {
  seq += 1;
  const tx = `MON-${Date.now()}-${seq}`;
  const transfer = (
    await t.db.pool.query(
      `insert into bank_transfers (bank_transaction_id, amount, currency, debtor_name, debtor_iban, end_to_end_id,
         booking_date, state, user_id)
       values ($1, $2, 'EUR', 'Payer', $3, $1, current_date, 'credited', $4) returning id`,
      [tx, amount, iban, who.id],
    )
  ).rows[0].id;
  const units = toUnits(amount, 2);
  const credited = await t.deps.core.sequencer.submit(
    { type: 'Credit', user: who.id, currency: 'eur', amount: units, kind: 'deposit' },
    `bank-deposit:${transfer}`,
  );
  expect(credited.ok).toBe(true);
  const row = await t.db.pool.query(
    `insert into deposits (user_id, currency_id, blockchain_key, address, txid, txout, amount, state, credited_at,
       bank_transfer_id)
     values ($1, 'eur', null, $2, $3, 0, $4, 'accepted', now(), $5) returning id::int`,
    [who.id, iban, tx, amount, transfer],
  );
  return row.rows[0].id as number;
}
