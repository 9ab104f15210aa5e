import { cardNetwork, moveReplacedBalances, SIM_RATE_DECIMALS } from '@exchange/provider-sims/card-issuer';
import { toUnits } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { cardSuite, USDT } from '../support/card.ts';

const s = cardSuite({ CARD_EUR_PER_USDT: '0.92' });
const today = new Date().toISOString().slice(0, 10);

/** Both sides' balance of a card: the simulator's (USDT units) and ours as mirrored from the webhooks. */
const balances = async (issuerToken: string) =>
  (
    await s.db.query(
      `select (select balance::text from cardsim_cards where token = $1) as sim,
         (select balance::text from cards where issuer_token = $1) as ours`,
      [issuerToken],
    )
  ).rows[0];
const simRows = async (issuerToken: string) =>
  (
    await s.db.query(
      `select type_code, status, usdt_units::text as usdt, merchant from cardsim_transactions
       where card_token = $1 and type_code in (120, 121) order by created_time, token`,
      [issuerToken],
    )
  ).rows;

describe('card replacement moves the balance', () => {
  it('moves the old card’s balance to the delivered replacement once (121 out, 120 in); the float stays', async () => {
    const who = await s.approved('replace-balance@example.com');
    const masked = await s.activeCard(who);
    const pan = await s.pan(who, masked);
    expect((await s.topup(who, masked, '100')).statusCode).toBe(201);
    await s.settleTopups();
    // 9.20 EUR at 0.92 = 10 USDT spent before the replacement; refunded after it (below).
    const buy = await cardNetwork(s.db, 'spend', [pan, '9.20', 'Shop'], '0.92');
    expect(buy.ok, buy.message).toBe(true);
    await s.settle();
    const old = await s.row(who, masked);
    expect(await balances(old.issuer_token)).toEqual({ sim: '90000000', ours: '90' });
    const float = s.cardFloat();

    const replaced = await s.call(who, 'POST', '/account/replace_card', { card_number: masked });
    expect(replaced.statusCode, replaced.body).toBe(201);
    const fresh = (await s.db.query('select issuer_token from cards where replaces_card_id = $1', [old.id]))
      .rows[0].issuer_token as string;
    // Not delivered yet: a tick moves nothing.
    await s.settle();
    expect(await balances(old.issuer_token)).toEqual({ sim: '90000000', ours: '90' });
    expect(await simRows(old.issuer_token)).toEqual([]);

    await s.fulfilAll();
    expect((await s.simCard(old.issuer_token)).state).toBe('TERMINATED');
    // The tick runs again, the app restarts, and it runs again: moved once.
    await s.settle();
    await s.restart();
    await s.settle();
    const rate = toUnits('0.92', SIM_RATE_DECIMALS);
    expect(await Promise.all([moveReplacedBalances(s.db, rate), moveReplacedBalances(s.db, rate)])).toEqual([
      0, 0,
    ]);
    expect(await balances(old.issuer_token)).toEqual({ sim: '0', ours: '0' });
    expect(await balances(fresh)).toEqual({ sim: '90000000', ours: '90' });
    expect(await simRows(old.issuer_token)).toEqual([
      { type_code: 121, status: 'settled', usdt: '-90000000', merchant: 'Card replacement' },
    ]);
    expect(await simRows(fresh)).toEqual([
      { type_code: 120, status: 'settled', usdt: '90000000', merchant: 'Card replacement' },
    ]);

    // On the new card's statement (the new card is not active yet, but its statement is readable).
    const newMasked = `${masked.slice(0, 4)} **** **** ${(await s.db.query('select last4 from cards where issuer_token = $1', [fresh])).rows[0].last4}`;
    const statement = await s.call(who, 'POST', '/account/card_transaction', {
      card_number: newMasked,
      transaction_type: 'Settled',
      currency: 'USDT',
      date_from: today,
      date_to: today,
    });
    expect(statement.statusCode, statement.body).toBe(200);
    expect(statement.json().items).toMatchObject([
      { tradeType: 120, tradeStatus: 'settled', amount: '90', remark: 'Card replacement' },
    ]);

    // A refund reaching the old card afterwards follows to the new card on the next tick.
    const refund = await cardNetwork(s.db, 'refund', [JSON.parse(buy.message).trade_id], '0.92');
    expect(refund.ok, refund.message).toBe(true);
    await s.settle();
    await s.settle();
    expect(await balances(old.issuer_token)).toEqual({ sim: '0', ours: '0' });
    expect(await balances(fresh)).toEqual({ sim: '100000000', ours: '100' });
    expect((await simRows(fresh)).map((r) => r.usdt)).toEqual(['90000000', '10000000']);

    // The money stayed with the issuer: the core's card float did not move.
    expect(s.cardFloat()).toBe(float);
    expect(float).toBe(100n * USDT);
    expect(await auditLedger(s.db)).toEqual([]);
  });
});
