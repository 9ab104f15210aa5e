import { CARD_ERRORS, CARD_MONEY_ERRORS } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { cardSuite, topupsOffTheirCards, USDT } from '../support/card.ts';

// Small limits so that they are reached: 200 USDT of top-ups per card and day, 300 USDT on a card; fee 1 %.
// Rate limits off: 50 top-ups of one user at once are the point of one test.
const s = cardSuite({
  CARD_TOPUP_LIMIT: '200',
  CARD_LOAD_LIMIT: '300',
  CARD_TOPUP_FEE: '1',
  RATE_LIMITS: 'false',
});

/** Everything a refusal must leave as it was. */
const snapshot = async (who: Parameters<typeof s.usdt>[0]) => ({
  spot: s.usdt(who),
  fees: s.feesAccount(),
  float: s.cardFloat(),
  rows: await s.topupStates(who),
  balances: (await s.db.query('select balance::text from cards where user_id = $1 order by id', [who.id]))
    .rows,
});

describe('card top-up', () => {
  it('moves amount + fee out of the spot wallet through the core, then settles on the card by webhook', async () => {
    const who = await s.approved('topup-ok@example.com');
    const card = await s.activeCard(who);
    const spot = s.usdt(who);
    const fees = s.feesAccount();
    const res = await s.topup(who, card, '100');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      topup_status: 'processing',
      aasm_state: 'submitted',
      amount: '100',
      usdt_amount: '101',
      fee: '1',
      currency: 'usdt',
    });
    expect(s.usdt(who)).toBe(spot - 101n * USDT);
    expect(s.feesAccount()).toBe(fees + USDT);
    expect(await s.topupStates(who)).toEqual({ submitted: 1 });
    // Pending: not on the card yet, but counted today.
    let details = (
      await s.call(who, 'GET', `/account/card_details?card_number=${encodeURIComponent(card)}`)
    ).json();
    expect(details).toMatchObject({ usdt_balance: '0', total_24h: '100', pending_topups: '100' });

    await s.settleTopups();
    expect(await s.topupStates(who)).toEqual({ settled: 1 });
    details = (
      await s.call(who, 'GET', `/account/card_details?card_number=${encodeURIComponent(card)}`)
    ).json();
    expect(details).toMatchObject({
      balance: '100',
      usdt_balance: '100',
      eur_balance: '92.00',
      total_24h: '100',
      pending_topups: '0',
    });
    expect((await s.call(who, 'GET', '/account/cards')).json()[0].balance).toBe('100');
    const sim = await s.db.query(
      `select c.balance::text from cardsim_cards c join cards k on k.issuer_token = c.token where k.user_id = $1`,
      [who.id],
    );
    expect(sim.rows[0].balance).toBe(String(100n * USDT));
    const list = (
      await s.call(who, 'GET', `/account/list/topup_transactions?card_number=${encodeURIComponent(card)}`)
    ).json();
    expect(list.totalItem).toBe(1);
    expect(list.items[0]).toMatchObject({ topup_status: 'success', aasm_state: 'settled', amount: '100' });
    // A second settle run (and a replayed webhook) change nothing.
    await s.settleTopups();
    expect(
      (await s.db.query('select balance::text from cards where user_id = $1', [who.id])).rows[0].balance,
    ).toBe('100');
    expect(await auditLedger(s.db)).toEqual([]);
    // The cross-check against the issuer's records finds a funding order that completed for another amount.
    expect(await topupsOffTheirCards(s.db)).toEqual([]);
    const topup = (await s.db.query('select id, issuer_token from card_topups where user_id = $1', [who.id]))
      .rows[0];
    await s.db.query('update cardsim_gpaorders set amount = amount + 1 where token = $1', [
      topup.issuer_token,
    ]);
    expect(await topupsOffTheirCards(s.db)).toEqual([`top-up ${topup.id} is settled but not on its card`]);
    await s.db.query('update cardsim_gpaorders set amount = amount - 1 where token = $1', [
      topup.issuer_token,
    ]);
  });

  it('rounds the fee up to 6 decimals (1 % of 1.000001 is 0.010001)', async () => {
    const who = await s.approved('topup-fee@example.com');
    const card = await s.activeCard(who);
    const spot = s.usdt(who);
    const res = await s.topup(who, card, '1.000001');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ fee: '0.010001', usdt_amount: '1.010002' });
    expect(s.usdt(who)).toBe(spot - 1_010_002n);
  });

  it('refuses with nothing changed: validation, blocked, not active, balance, load and daily limits', async () => {
    const who = await s.approved('topup-no@example.com', 250n * USDT);
    const card = await s.activeCard(who);
    const before = await snapshot(who);
    const refused = async (amount: string, code: string, status = 422, ref = card) => {
      const res = await s.topup(who, ref, amount);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().errors).toEqual([code]);
      expect(await snapshot(who)).toEqual(before);
      return res.json();
    };
    await refused('', CARD_MONEY_ERRORS.topupAmountRequired);
    await refused('0.5', CARD_MONEY_ERRORS.topupBelowMinimum);
    await refused('1.0000001', CARD_MONEY_ERRORS.topupAmountInvalid);
    await refused('abc', CARD_MONEY_ERRORS.topupAmountInvalid);
    // 220 spot: 218 + 2.18 > 220.
    await refused('218', CARD_MONEY_ERRORS.insufficientBalance);
    // Over the daily limit (200).
    expect((await refused('200.000001', CARD_MONEY_ERRORS.dailyLimitExceeded)).limit).toBe('200');

    // The card is blocked.
    expect((await s.call(who, 'POST', '/account/report/card_loss', { card_number: card })).statusCode).toBe(
      201,
    );
    const blockedBefore = await snapshot(who);
    const blocked = await s.topup(who, card, '5');
    expect(blocked.json().errors).toEqual([CARD_ERRORS.cardBlocked]);
    expect(await snapshot(who)).toEqual(blockedBefore);
    expect((await s.call(who, 'POST', '/account/remove/card_loss', { card_number: card })).statusCode).toBe(
      201,
    );

    // A second card, ordered and paid but not activated.
    const ordered = await s.order(who);
    const inactive = ordered.json().card_number as string;
    const inactiveBefore = await snapshot(who);
    const res = await s.topup(who, inactive, '5');
    expect(res.json().errors).toEqual([CARD_ERRORS.cardNotActive]);
    expect(await snapshot(who)).toEqual(inactiveBefore);
  });

  it('keeps the card balance under the load limit, counting top-ups still pending', async () => {
    const who = await s.approved('topup-load@example.com');
    const card = await s.activeCard(who);
    expect((await s.topup(who, card, '200')).statusCode).toBe(201);
    await s.settleTopups();
    // Next day: the daily limit is fresh, the card holds 200 of 300.
    await s.db.query(`update card_topups set created_on = created_on - 1 where user_id = $1`, [who.id]);
    expect((await s.topup(who, card, '60')).statusCode).toBe(201);
    const before = await snapshot(who);
    const res = await s.topup(who, card, '40.000001');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: [CARD_MONEY_ERRORS.loadLimitExceeded], limit: '300' });
    expect(await snapshot(who)).toEqual(before);
    expect((await s.topup(who, card, '40')).statusCode).toBe(201);
  });

  it('50 concurrent top-ups: exactly as many as the balance, then the daily limit, allow', async () => {
    // Balance for 15 top-ups of 10 (+0.1 fee) after the 30 USDT of card fees.
    const poor = await s.approved('topup-race-1@example.com', 30n * USDT + 15n * 10_100_000n);
    const poorCard = await s.activeCard(poor);
    // Plenty of balance: the daily limit (200) allows 20.
    const rich = await s.approved('topup-race-2@example.com');
    const richCard = await s.activeCard(rich);
    const richSpot = s.usdt(rich);
    const fees = s.feesAccount();
    const float = s.cardFloat();
    const [a, b] = await Promise.all([
      Promise.all(Array.from({ length: 50 }, () => s.topup(poor, poorCard, '10'))),
      Promise.all(Array.from({ length: 50 }, () => s.topup(rich, richCard, '10'))),
    ]);
    const codes = (rs: typeof a) =>
      rs.reduce((m: Record<string, number>, r) => {
        const k = r.statusCode === 201 ? 'ok' : r.json().errors[0];
        m[k] = (m[k] ?? 0) + 1;
        return m;
      }, {});
    expect(codes(a)).toEqual({ ok: 15, [CARD_MONEY_ERRORS.insufficientBalance]: 35 });
    expect(codes(b)).toEqual({ ok: 20, [CARD_MONEY_ERRORS.dailyLimitExceeded]: 30 });
    expect(s.usdt(poor)).toBe(0n);
    expect(s.usdt(rich)).toBe(richSpot - 20n * 10_100_000n);
    expect(s.feesAccount()).toBe(fees + 35n * 100_000n);
    expect(s.cardFloat()).toBe(float + 350n * USDT);
    expect(await s.topupStates(poor)).toEqual({ submitted: 15 });
    expect(await s.topupStates(rich)).toEqual({ submitted: 20 });
    await s.settleTopups();
    expect(await s.topupStates(rich)).toEqual({ settled: 20 });
    expect(await auditLedger(s.db)).toEqual([]);
  });

  it("another user's card is not found on every top-up route", async () => {
    const owner = await s.approved('topup-owner@example.com');
    const card = await s.activeCard(owner);
    const full = await s.pan(owner, card);
    const other = await s.approved('topup-other@example.com');
    for (const ref of [card, full]) {
      expect((await s.topup(other, ref, '5')).statusCode).toBe(404);
      const list = await s.call(
        other,
        'GET',
        `/account/list/topup_transactions?card_number=${encodeURIComponent(ref)}`,
      );
      expect(list.statusCode).toBe(404);
    }
  });
});
