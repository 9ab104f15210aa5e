import { describe, expect, it, vi } from 'vitest';
import { cardSuite } from '../support/card.ts';
import type { Member } from '../support/wallet.ts';

/** The dev card terminal's route: this machine only, the signed-in user's own card only. */
const s = cardSuite({ DEV_TOOLS: 'true', CARD_EUR_PER_USDT: '0.92' });
const spend = (who: Member | undefined, body: Record<string, unknown>, remoteAddress = '127.0.0.1') =>
  s.t.app.inject({
    method: 'POST',
    url: '/api/v2/dev/card/spend',
    headers: who?.headers ?? {},
    payload: body,
    remoteAddress,
  });

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
    await vi.waitFor(
      async () => {
        const details = await s.call(
          who,
          'GET',
          `/account/card_details?card_number=${encodeURIComponent(card)}`,
        );
        expect(details.json().usdt_balance).toBe('50');
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});
