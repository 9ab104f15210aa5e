import { describe, expect, it } from 'vitest';
import { validIban } from '../../src/adapters/bank/port.ts';
import { type Member, walletSuite } from '../support/wallet.ts';

const EUR = 100n;
const IBAN = 'DE89 3704 0044 0532 0130 00';

const w = walletSuite();
const balance = (who: Member) => w.balance(who, 'eur');
async function funded(email: string, eur: bigint) {
  const who = await w.member(email);
  await w.credit(who, 'eur', eur * EUR);
  return who;
}
const withdraw = async (who: Member, body: Record<string, unknown>) =>
  w.call(who, 'POST', '/account/fiats/withdraws', {
    currency: 'eur',
    amount: '100',
    iban: IBAN,
    holder: 'Ann Example',
    otp: await w.totp(who),
    ...body,
  });

describe('IBAN check digits', () => {
  it('accepts valid IBANs and refuses a changed digit', () => {
    expect(validIban(IBAN)).toBe(true);
    expect(validIban('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(validIban('DE89 3704 0044 0532 0130 01')).toBe(false);
    expect(validIban('DE00')).toBe(false);
  });
});

describe('fiat withdrawals', () => {
  it('pay a bank account: FINISHED, the balance goes out through the ledger, and the list shows it', async () => {
    const ann = await funded('ann@fiat.test', 500n);
    const res = await withdraw(ann, {});
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      returnType: 'FINISHED',
      transaction: { state: 'succeed', amount: '100' },
    });
    expect(balance(ann)).toEqual({ balance: 400n * EUR, locked: 0n });
    const list = await w.call(ann, 'GET', '/account/fiat/transactions');
    expect(list.headers.total).toBe('1');
    expect(list.json()[0]).toMatchObject({ iban: 'DE89370400440532013000', state: 'succeed' });
    const back = await w.call(ann, 'POST', '/account/fiats/withdraw/callback', { id: list.json()[0].id });
    expect(back.json()).toEqual({ returnType: 'FINISHED' });
  });

  it('a payout the bank refuses is ERROR and the funds come back', async () => {
    const bob = await funded('bob@fiat.test', 200_000n);
    const res = await withdraw(bob, { amount: '150000' });
    expect(res.json().returnType).toBe('ERROR');
    expect(balance(bob)).toEqual({ balance: 200_000n * EUR, locked: 0n });
    const [row] = (await w.call(bob, 'GET', '/account/fiat/transactions')).json();
    expect(row.state).toBe('failed');
    expect((await w.call(bob, 'POST', '/account/fiats/withdraw/callback', { id: row.id })).json()).toEqual({
      returnType: 'ERROR',
    });
  });

  it('refuses bad input and other users with nothing changed', async () => {
    const cat = await funded('cat@fiat.test', 500n);
    const dan = await funded('dan@fiat.test', 500n);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ currency: 'btc' }, 422, 'account.fiat.invalid_currency'],
      [{ iban: 'DE89 3704 0044 0532 0130 01' }, 422, 'account.fiat.invalid_iban'],
      [{ iban: 'nonsense' }, 422, 'account.fiat.invalid_iban'],
      [{ holder: '' }, 422, 'account.fiat.missing_holder'],
      [{ amount: '' }, 422, 'account.withdraw.missing_amount'],
      [{ amount: '1.001' }, 422, 'account.withdraw.invalid_amount'],
      [{ amount: '500.01' }, 422, 'account.withdraw.insufficient_balance'],
      [{ otp: '000000' }, 422, 'account.withdraw.invalid_otp'],
    ];
    for (const [body, status, code] of cases) {
      const res = await withdraw(cat, body);
      expect(res.statusCode, code).toBe(status);
      expect(res.json().errors, JSON.stringify(body)).toEqual([code]);
    }
    expect(balance(cat)).toEqual({ balance: 500n * EUR, locked: 0n });
    await w.t.db.pool.query('update users set level = 2 where id = $1', [cat.id]);
    expect((await withdraw(cat, { amount: '10' })).statusCode).toBe(403);

    const mine = (await withdraw(dan, { amount: '10' })).json().transaction.id;
    const other = await w.call(cat, 'POST', '/account/fiats/withdraw/callback', { id: mine });
    expect(other.statusCode).toBe(404);
    expect((await w.call(cat, 'GET', '/account/fiat/transactions')).json()).toEqual([]);
  });

  it('a bank that does not answer leaves the payout PROCESSING and held; the callback asks the bank', async () => {
    const eve = await funded('eve@fiat.test', 300n);
    const bank = w.t.deps.wallet.bank;
    const payout = bank.payout;
    // The bank takes the payout, but its answer is lost on the way back.
    bank.payout = async (request) => {
      await payout(request);
      throw new Error('socket hang up');
    };
    let id: number;
    try {
      const res = await withdraw(eve, { amount: '120' });
      expect(res.json()).toMatchObject({ returnType: 'PROCESSING', transaction: { state: 'processing' } });
      id = res.json().transaction.id;
    } finally {
      bank.payout = payout;
    }
    expect(balance(eve)).toEqual({ balance: 180n * EUR, locked: 120n * EUR });
    const back = await w.call(eve, 'POST', '/account/fiats/withdraw/callback', { id });
    expect(back.json()).toEqual({ returnType: 'FINISHED' });
    expect(balance(eve)).toEqual({ balance: 180n * EUR, locked: 0n });
  });
});
