import { cardNetwork } from '@exchange/provider-sims/card-issuer';
import { describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { cardSuite } from '../support/card.ts';

const s = cardSuite({ CARD_EUR_PER_USDT: '0.92' });
const today = new Date().toISOString().slice(0, 10);

describe('card fee (type 500)', () => {
  it('`card fee <card_number> <eur> [reason]` charges the card; the balance follows; on the statement', async () => {
    const who = await s.approved('card-fee@example.com');
    const masked = await s.activeCard(who);
    const pan = await s.pan(who, masked);
    expect((await s.topup(who, masked, '100')).statusCode).toBe(201);
    await s.settleTopups();
    const float = s.cardFloat();

    expect((await cardNetwork(s.db, 'fee', [pan], '0.92')).message).toBe(
      'usage: card fee <card_number> <eur> [reason]',
    );
    expect((await cardNetwork(s.db, 'fee', [pan, '-1'], '0.92')).ok).toBe(false);
    // 4.60 EUR at 0.92 = 5 USDT.
    const charged = await cardNetwork(s.db, 'fee', [pan, '4.60', 'Card', 'maintenance'], '0.92');
    expect(charged.ok, charged.message).toBe(true);
    const fee = JSON.parse(charged.message);
    expect(fee).toMatchObject({ status: 'settled', usdt: '5' });
    // More than the card holds: declined, nothing moves.
    const tooMuch = await cardNetwork(s.db, 'fee', [pan, '100'], '0.92');
    expect(JSON.parse(tooMuch.message)).toMatchObject({ status: 'declined', reason: 'insufficient_funds' });
    await s.settle();

    const details = (
      await s.call(who, 'GET', `/account/card_details?card_number=${encodeURIComponent(masked)}`)
    ).json();
    expect(details.usdt_balance).toBe('95');
    const sim = await s.db.query('select balance::text from cardsim_cards where token = $1', [
      (await s.row(who, masked)).issuer_token,
    ]);
    expect(sim.rows[0].balance).toBe('95000000');

    const statement = await s.call(who, 'POST', '/account/card_transaction', {
      card_number: masked,
      transaction_type: 'Settled',
      currency: 'USDT',
      date_from: today,
      date_to: today,
    });
    const fees = statement.json().items.filter((t: { tradeType: number }) => t.tradeType === 500);
    expect(fees).toHaveLength(2);
    expect(fees.find((t: { tradeId: string }) => t.tradeId === fee.trade_id)).toMatchObject({
      tradeStatus: 'settled',
      amount: '-5',
      txnAmount: '-4.60',
      remark: 'Card maintenance',
    });
    expect(fees.find((t: { tradeId: string }) => t.tradeId !== fee.trade_id)).toMatchObject({
      tradeStatus: 'declined',
      remark: 'Card fee: insufficient_funds',
    });
    // The fee stays with the issuer: the exchange's card float is what was topped up.
    expect(s.cardFloat()).toBe(float);
    expect(await auditLedger(s.db)).toEqual([]);
  });
});
