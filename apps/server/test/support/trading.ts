import type { TestApp } from './app.ts';
import { plainUser, sessionFor } from './core.ts';

/** A trader of the trading tests: its user id and the headers of a signed-in session. */
export interface Trader {
  id: number;
  headers: Record<string, string>;
}

/** A bare user credited with `credits` (deposits through the core), signed in. */
export async function trader(t: TestApp, email: string, credits: Record<string, bigint>): Promise<Trader> {
  const id = await plainUser(t.db.pool, email);
  for (const [currency, amount] of Object.entries(credits)) {
    await t.deps.core.sequencer.submit({ type: 'Credit', user: id, currency, amount, kind: 'deposit' });
  }
  return { id, headers: await sessionFor(t.deps.sessions, id) };
}

/** The two traders of trading.test.ts and trading-streams.test.ts: a seller of ETH and a buyer with BTC. */
export async function sellerAndBuyer(t: TestApp): Promise<{ seller: Trader; buyer: Trader }> {
  return {
    seller: await trader(t, 'seller@trade.test', { eth: 10n * 10n ** 18n }),
    buyer: await trader(t, 'buyer@trade.test', { btc: 2n * 10n ** 8n }),
  };
}

/** `POST /market/orders` as `who`. */
export const placeOrder = (
  t: TestApp,
  who: { headers: Record<string, string> },
  body: Record<string, unknown>,
) =>
  t.app.inject({ method: 'POST', url: '/api/v2/peatio/market/orders', headers: who.headers, payload: body });
