import { describe, expect, it } from 'vitest';
import type { CreditNotification } from '../../src/adapters/bank/port.ts';
import { bankWebhookHeaders } from '../../src/adapters/bank/signing.ts';
import { type Member, walletSuite } from '../support/wallet.ts';

/**
 * BANK_PROVIDER=external: a real bank instead of the simulator. Its notifications, signed with
 * BANK_WEBHOOK_SECRET, credit a business's EUR; the bank simulator is not composed (no /bank-sim, no payouts
 * bank), so with no payout adapter yet a EUR withdrawal is refused and its funds come back.
 */
const SECRET = 'real-bank-secret-0123456789';
const w = walletSuite({ BANK_PROVIDER: 'external', BANK_WEBHOOK_SECRET: SECRET });
const WEBHOOK = '/api/v2/peatio/bank/notifications';

function notification(reference: string, amount: string): CreditNotification {
  const id = `EXT${Date.now()}`;
  return {
    notification_id: `NTF-${id}`,
    account: { iban: w.t.deps.config.bank.collection.iban },
    entries: [
      {
        acct_svcr_ref: id,
        credit_debit: 'CRDT',
        status: 'BOOK',
        amount,
        currency: 'EUR',
        booking_date: new Date().toISOString().slice(0, 10),
        end_to_end_id: 'NOTPROVIDED',
        debtor: { name: 'ACME GmbH', iban: 'FR1420041010050500013M02606' },
        remittance: { unstructured: null, creditor_reference: reference },
      },
    ],
  };
}

async function business(email: string): Promise<Member> {
  const who = await w.member(email);
  await w.t.db.pool.query(`update users set account_type = 'business', level = 3 where id = $1`, [who.id]);
  return who;
}

describe('an external bank (BANK_PROVIDER=external)', () => {
  it('composes no bank simulator: its API is not served', async () => {
    expect(w.t.deps.bankSimulator).toBeUndefined();
    const res = await w.t.app.inject({ method: 'POST', url: '/bank-sim/v1/incoming-transfers', payload: {} });
    expect(res.statusCode).toBe(404);
  });

  it("credits a notification signed with the bank's secret, and refuses one signed with another", async () => {
    const acme = await business('acme@external-bank.test');
    const reference = (await w.call(acme, 'GET', '/account/bank_deposit')).json().reference as string;
    const forged = JSON.stringify(notification(reference, '70.00'));
    const refused = await w.t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      headers: bankWebhookHeaders('another-secret-0123456789', forged),
      payload: forged,
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ errors: ['account.bank_deposit.webhook_unauthorized'] });
    expect(w.balance(acme, 'eur').balance).toBe(0n);

    const payload = JSON.stringify(notification(reference, '125.50'));
    const accepted = await w.t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      headers: bankWebhookHeaders(SECRET, payload),
      payload,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(w.balance(acme, 'eur').balance).toBe(12_550n);
  });

  it('refuses a EUR payout (no payout adapter) and gives the funds back', async () => {
    const ann = await w.member('ann@external-bank.test');
    await w.credit(ann, 'eur', 500n * 100n);
    const res = await w.call(ann, 'POST', '/account/fiats/withdraws', {
      currency: 'eur',
      amount: '100',
      iban: 'DE89 3704 0044 0532 0130 00',
      holder: 'Ann Example',
      otp: await w.totp(ann),
    });
    expect(res.json().returnType).toBe('ERROR');
    expect(w.balance(ann, 'eur')).toEqual({ balance: 500n * 100n, locked: 0n });
  });
});
