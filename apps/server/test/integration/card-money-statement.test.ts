import { cardNetwork } from '@exchange/provider-sims/card-issuer';
import { CARD_MONEY_ERRORS } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { cardSuite } from '../support/card.ts';
import type { Member } from '../support/wallet.ts';

const s = cardSuite({ CARD_TOPUP_FEE: '1', CARD_EUR_PER_USDT: '0.92' });
const today = new Date().toISOString().slice(0, 10);
const net = async (command: string, ...args: string[]) => {
  const r = await cardNetwork(s.db, command, args, '0.92');
  return { ok: r.ok, ...JSON.parse(r.message.startsWith('{') ? r.message : '{}'), message: r.message };
};
const statement = (who: Member, card: string, extra: Record<string, unknown> = {}) =>
  s.call(who, 'POST', '/account/card_transaction', {
    card_number: card,
    transaction_type: 'Settled',
    currency: 'USDT',
    date_from: today,
    date_to: today,
    ...extra,
  });

describe('card network and statement', () => {
  it('spends, declines, refunds and reverses; the card balance follows; the statement pages and filters', async () => {
    const who = await s.approved('statement@example.com');
    const card = await s.activeCard(who);
    const pan = await s.pan(who, card);
    expect((await s.topup(who, card, '100')).statusCode).toBe(201);
    await s.settleTopups();

    // 46.00 EUR at 0.92 = 50 USDT.
    const buy = await net('spend', pan, '46', 'Coffee', 'Shop');
    expect(buy).toMatchObject({ ok: true, status: 'settled', usdt: '50' });
    expect((await net('spend', pan, '46.01')).reason).toBe('insufficient_funds');
    expect((await net('atm', pan, '9.99')).reason).toBe('atm_below_minimum');
    expect((await net('atm', pan, '1000.01')).reason).toBe('atm_above_maximum');
    expect(await net('atm', pan, '10')).toMatchObject({ ok: true, usdt: '10.869566' });
    const refund = await net('refund', buy.trade_id, '9.20');
    expect(refund).toMatchObject({ ok: true, usdt: '10' });
    expect((await net('reverse', buy.trade_id)).usdt).toBe('40');
    expect((await net('reverse', buy.trade_id)).ok).toBe(false);
    await s.settle();
    const details = (
      await s.call(who, 'GET', `/account/card_details?card_number=${encodeURIComponent(card)}`)
    ).json();
    // 100 − 50 + 10 + 40 − 10.869566
    expect(details.usdt_balance).toBe('89.130434');
    const sim = await s.db.query(
      `select c.balance::text from cardsim_cards c join cards k on k.issuer_token = c.token where k.user_id = $1`,
      [who.id],
    );
    expect(sim.rows[0].balance).toBe('89130434');

    const all = (await statement(who, card)).json();
    // Top-up; the purchase (authorisation and clearing, both reversed) and a declined one; 2 declined ATM
    // withdrawals and one made; the refund and the reversal.
    expect(all.totalItem).toBe(all.items.length);
    const types = all.items
      .map((t: { tradeType: number }) => t.tradeType)
      .sort((a: number, b: number) => a - b);
    expect(types).toEqual([2, 10, 100, 110, 110, 110, 150, 150, 151]);
    expect(all.items.find((t: { tradeType: number }) => t.tradeType === 151)).toMatchObject({
      tradeStatus: 'reversed',
      amount: '-50',
      txnAmount: '-46.00',
      billAmount: '-50',
      exchangeRate: '0.92',
      cardNo: card,
    });
    // The top-up's row shows the 1 % fee it cost (issue 32, cards item 8); the others cost none.
    expect(all.items.find((t: { tradeType: number }) => t.tradeType === 100)).toMatchObject({
      amount: '100',
      fee: '1',
    });
    expect(
      all.items.filter((t: { tradeType: number; fee: string }) => t.tradeType !== 100 && t.fee !== '0'),
    ).toEqual([]);
    const eur = (await statement(who, card, { currency: 'EUR' })).json();
    expect(eur.items.find((t: { tradeType: number }) => t.tradeType === 100)).toMatchObject({
      amount: '92.00',
      fee: '0.92',
    });
    const page = (await statement(who, card, { size: 3, start: 3 })).json();
    expect(page.items.map((t: { tradeId: string }) => t.tradeId)).toEqual(
      all.items.slice(3, 6).map((t: { tradeId: string }) => t.tradeId),
    );
    expect((await statement(who, card, { transaction_type: 'Unsettled' })).json().totalItem).toBe(0);
    expect(await auditLedger(s.db)).toEqual([]);
  });

  it('refuses bad statement filters and dates, and other users’ cards', async () => {
    const who = await s.approved('statement-2@example.com');
    const card = await s.activeCard(who);
    const other = await s.approved('statement-3@example.com');
    const shift = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    for (const [extra, code] of [
      [{ date_from: '2024-13-01' }, CARD_MONEY_ERRORS.statementDateInvalid],
      [{ date_from: shift(-1), date_to: shift(-2) }, CARD_MONEY_ERRORS.statementRangeInvalid],
      [{ date_from: shift(-31) }, CARD_MONEY_ERRORS.statementRangeTooLong],
      [{ date_to: shift(1) }, CARD_MONEY_ERRORS.statementFutureDate],
      [{ currency: 'BTC' }, CARD_MONEY_ERRORS.statementFilterInvalid],
    ] as const) {
      const res = await statement(who, card, extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(422);
      expect(res.json().errors).toEqual([code]);
    }
    expect((await statement(who, card, { date_from: shift(-30) })).statusCode).toBe(200);
    expect((await statement(other, card)).statusCode).toBe(404);
    expect((await statement(other, await s.pan(who, card))).statusCode).toBe(404);
  });
});
