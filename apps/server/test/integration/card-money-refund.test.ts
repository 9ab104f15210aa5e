import { SIM_RATE_DECIMALS, settleDueGpaOrders } from '@exchange/provider-sims/card-issuer';
import { CARD_MONEY_ERRORS } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { auditCards, auditLedger } from '../../src/core/audit.ts';
import { withTransaction } from '../../src/db/pool.ts';
import { cardSuite, USDT } from '../support/card.ts';
import type { Member } from '../support/wallet.ts';

const s = cardSuite({ CARD_TOPUP_FEE: '1', CARD_EUR_PER_USDT: '0.92' });
const RATE = 92n * 10n ** BigInt(SIM_RATE_DECIMALS - 2);

const rows = async (who: Member) =>
  (
    await s.db.query('select id, state, sent, amount::text from card_topups where user_id = $1 order by id', [
      who.id,
    ])
  ).rows;
const block = async (who: Member, card: string) =>
  expect((await s.call(who, 'POST', '/account/report/card_loss', { card_number: card })).statusCode).toBe(
    201,
  );

describe('card top-up refused by the issuer', () => {
  it('is refunded to the spot balance once (fee kept), however often the tick and the webhook run', async () => {
    const who = await s.approved('refund-once@example.com');
    const card = await s.activeCard(who);
    const spot = s.usdt(who);
    const float = s.cardFloat();
    expect((await s.topup(who, card, '50')).statusCode).toBe(201);
    expect(s.usdt(who)).toBe(spot - 50_500_000n);
    // Blocked before the issuer settles: the funding order is declined.
    await block(who, card);
    await s.settleTopups();
    await s.settleTopups();
    expect((await rows(who)).map((r) => r.state)).toEqual(['refunded']);
    expect(s.usdt(who)).toBe(spot - 500_000n);
    expect(s.cardFloat()).toBe(float);
    // The webhooks delivered again, and the recovery run again: nothing more.
    await s.db.query('update cardsim_webhooks set delivered_at = null');
    await s.settle();
    await s.t.deps.cards.topups.recover(0);
    await s.t.deps.cards.tick();
    expect(s.usdt(who)).toBe(spot - 500_000n);
    const list = (
      await s.call(who, 'GET', `/account/list/topup_transactions?card_number=${encodeURIComponent(card)}`)
    ).json();
    // The spec's state of a declined top-up is failed (shown as Processing, docs/cards.md#states), also once its amount
    // is back in the spot wallet, which topup_status says (issue 32, cards item 13).
    expect(list.items[0]).toMatchObject({ topup_status: 'refunded', aasm_state: 'failed', amount: '50' });
    const refunds = await s.db.query(
      `select count(*)::int as n from client_commands where ref like 'card-refund:%'`,
    );
    expect(refunds.rows[0].n).toBe(1);
    expect(await auditLedger(s.db)).toEqual([]);
  });

  it('survives restarts: a decision not yet delivered, a refund not yet made, a top-up not yet through the core', async () => {
    const who = await s.approved('refund-restart@example.com');
    const card = await s.activeCard(who);
    const spot = s.usdt(who);
    // 1. Two top-ups; the card is blocked; the issuer declines both while the app is down.
    expect((await s.topup(who, card, '10')).statusCode).toBe(201);
    expect((await s.topup(who, card, '20')).statusCode).toBe(201);
    await block(who, card);
    await s.t.deps.cardSimulator?.delivery.stop();
    expect(await settleDueGpaOrders(s.db, RATE, true)).toBe(2);
    expect(await settleDueGpaOrders(s.db, RATE, true)).toBe(0);
    await s.restart();
    await s.settle();
    expect((await rows(who)).map((r) => r.state)).toEqual(['refunded', 'refunded']);
    expect(s.usdt(who)).toBe(spot - 300_000n);

    // 2. A refusal recorded whose refund the process did not get to make: the card tick after a restart makes it.
    await s.call(who, 'POST', '/account/remove/card_loss', { card_number: card });
    expect((await s.topup(who, card, '5')).statusCode).toBe(201);
    const [, , third] = await rows(who);
    const token = (await s.db.query('select issuer_token from card_topups where id = $1', [third.id]))
      .rows[0];
    await withTransaction(s.db, (tx) =>
      s.t.deps.cards.topups.onFunding(tx, {
        token: 'txn_manual',
        state: 'DECLINED',
        gpa_order: { token: token.issuer_token },
      }),
    );
    expect((await rows(who))[2].state).toBe('failed');
    expect(await auditCards(s.db)).toEqual([]);
    await s.restart();
    await s.t.deps.cards.tick();
    await s.t.deps.cards.tick();
    expect((await rows(who))[2].state).toBe('refunded');
    expect(s.usdt(who)).toBe(spot - 350_000n);

    // 3. A top-up recorded, the process stopped before the core: the recovery moves it and funds the card once.
    const before = s.usdt(who);
    const row = (
      await s.db.query(
        `insert into card_topups (card_id, user_id, amount, fee, state, issuer_token)
         select id, user_id, 7, 0.07, 'new', 'ctp_recovered' from cards where user_id = $1 and status = 'normal'
         returning id`,
        [who.id],
      )
    ).rows[0];
    await s.restart();
    expect(await s.t.deps.cards.topups.recover(0)).toMatchObject({ submitted: 1, sent: 1 });
    expect(await s.t.deps.cards.topups.recover(0)).toMatchObject({ submitted: 0, sent: 0 });
    expect(s.usdt(who)).toBe(before - 7_070_000n);
    await s.settleTopups();
    expect((await s.db.query('select state from card_topups where id = $1', [row.id])).rows[0].state).toBe(
      'settled',
    );
    expect(
      (await s.call(who, 'GET', `/account/card_details?card_number=${encodeURIComponent(card)}`)).json(),
    ).toMatchObject({ usdt_balance: '7', eur_balance: '6.44' });
    expect(await auditLedger(s.db)).toEqual([]);
  });

  it('the audit finds a float that does not match the top-ups, and a refund without its refusal', async () => {
    const who = await s.approved('refund-audit@example.com');
    const card = await s.activeCard(who);
    expect((await s.topup(who, card, '3')).statusCode).toBe(201);
    expect(await auditCards(s.db)).toEqual([]);
    const id = (await rows(who))[0].id;
    await s.db.query(`update card_topups set state = 'refunded' where id = $1`, [id]);
    const rules = (await auditCards(s.db)).map((f) => f.rule).sort();
    expect(rules).toEqual(['card-float', 'card-refund']);
    await s.db.query(`update card_topups set state = 'submitted' where id = $1`, [id]);
    expect(await auditCards(s.db)).toEqual([]);
  });
});

describe('price conversion', () => {
  const convert = (who: Member, currency: string, amount: string) =>
    s.call(who, 'GET', `/account/price/conversion?currency=${currency}&amount=${encodeURIComponent(amount)}`);

  it('converts both ways exactly, rounding down once, with the top-up fee', async () => {
    const who = await s.member('convert@example.com');
    expect((await convert(who, 'usdt', '100')).json()).toEqual({
      currency: 'usdt',
      amount: '100',
      usdt_amount: '100',
      eur_amount: '92.00',
      rate: '0.92',
      fee: '1',
    });
    expect((await convert(who, 'usdt', '0.010869')).json()).toMatchObject({
      eur_amount: '0.00',
      fee: '0.000109',
    });
    expect((await convert(who, 'euro', '92')).json()).toMatchObject({
      usdt_amount: '100',
      eur_amount: '92',
      fee: '1',
    });
    // 1 / 0.92 = 1.08695652… → 1.086956.
    expect((await convert(who, 'euro', '1')).json()).toMatchObject({
      usdt_amount: '1.086956',
      fee: '0.01087',
    });
    for (const [currency, amount, code] of [
      ['btc', '1', CARD_MONEY_ERRORS.conversionCurrencyInvalid],
      ['usdt', '-1', CARD_MONEY_ERRORS.conversionAmountInvalid],
      ['euro', '1.1234567', CARD_MONEY_ERRORS.conversionAmountInvalid],
    ] as const) {
      const res = await convert(who, currency, amount);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual([code]);
    }
    expect(USDT).toBe(1_000_000n);
  });
});
