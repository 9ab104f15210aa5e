import { cardNetwork } from '@exchange/provider-sims/card-issuer';
import { describe, expect, it, vi } from 'vitest';
import { cardSuite } from '../support/card.ts';
import type { Member } from '../support/wallet.ts';

/** The dev card terminal's route: this machine only, the signed-in user's own card only. */
const s = cardSuite({ DEV_TOOLS: 'true', CARD_EUR_PER_USDT: '0.92' });
const post =
  (path: string) =>
  (who: Member | undefined, body: Record<string, unknown>, remoteAddress = '127.0.0.1') =>
    s.t.app.inject({
      method: 'POST',
      url: `/api/v2/dev/card/${path}`,
      headers: who?.headers ?? {},
      payload: body,
      remoteAddress,
    });
const spend = post('spend');
const refund = post('refund');
const cardBalance = (who: Member, card: string, expected: string) =>
  vi.waitFor(
    async () => {
      const details = await s.call(
        who,
        'GET',
        `/account/card_details?card_number=${encodeURIComponent(card)}`,
      );
      expect(details.json().usdt_balance).toBe(expected);
    },
    { timeout: 10_000, interval: 100 },
  );
describe('dev card terminal', () => {
  it('pays with the own card from this machine, and refuses another machine, no session and another user', async () => {
    const who = await s.approved('terminal@example.com');
    const card = await s.activeCard(who);
    expect((await s.topup(who, card, '100')).statusCode).toBe(201);
    await s.settleTopups();
    const other = await s.approved('stranger@example.com');

    const paid = await spend(who, { card_number: card, eur: '46', merchant: 'Cafe' });
    expect(paid.statusCode).toBe(201);
    expect(paid.json()).toMatchObject({ status: 'settled', usdt: '50' });
    const declined = await spend(who, { card_number: card, eur: '46.01' });
    expect(declined.json()).toMatchObject({ status: 'declined', reason: 'insufficient_funds' });

    expect((await spend(who, { card_number: card, eur: '1' }, '10.9.8.7')).statusCode).toBe(403);
    expect((await spend(undefined, { card_number: card, eur: '1' })).statusCode).toBe(401);
    const stranger = await spend(other, { card_number: card, eur: '1' });
    expect(stranger.statusCode).toBe(404);
    expect((await spend(who, { card_number: card, eur: '1.234' })).statusCode).toBe(422);
    // Only the one settled purchase moved the card: 100 topped up, 50 spent. Our side learns the card's balance
    // from the issuer's webhook, which is delivered in the background.
    await cardBalance(who, card, '50');

    // The merchant refunds 9.20 EUR of it at the terminal (10 USDT back), then the rest; never more, never another's.
    const tradeId = paid.json().trade_id;
    expect((await refund(other, { trade_id: tradeId, eur: '1' })).statusCode).toBe(404);
    expect((await refund(who, { trade_id: tradeId, eur: '1' }, '10.9.8.7')).statusCode).toBe(403);
    const part = await refund(who, { trade_id: tradeId, eur: '9.20' });
    expect(part.statusCode).toBe(201);
    expect(part.json()).toMatchObject({ status: 'settled', usdt: '10' });
    expect((await refund(who, { trade_id: tradeId, eur: '36.81' })).statusCode).toBe(422);
    expect((await refund(who, { trade_id: tradeId })).json()).toMatchObject({ usdt: '40' });
    expect((await refund(who, { trade_id: tradeId })).statusCode).toBe(422);
    await cardBalance(who, card, '100');
  });

  it('reverses part of a purchase, then the rest, and no more', async () => {
    const who = await s.approved('reversal@example.com');
    const card = await s.activeCard(who);
    const pan = await s.pan(who, card);
    expect((await s.topup(who, card, '100')).statusCode).toBe(201);
    await s.settleTopups();
    const net = async (...args: string[]) => {
      const r = await cardNetwork(s.db, args[0] as string, args.slice(1), '0.92');
      return { ok: r.ok, ...(r.message.startsWith('{') ? JSON.parse(r.message) : {}) };
    };
    const buy = await net('spend', pan, '46', 'Hotel');
    expect(buy).toMatchObject({ ok: true, usdt: '50' });
    expect(await net('reverse', buy.trade_id, '9.20')).toMatchObject({ ok: true, usdt: '10' });
    expect(await net('reverse', buy.trade_id)).toMatchObject({ ok: true, usdt: '40' });
    expect((await net('reverse', buy.trade_id)).ok).toBe(false);
    await cardBalance(who, card, '100');
  });
});
