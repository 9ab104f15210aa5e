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

/** `POST /market/orders` as `who`. */
export const placeOrder = (
  t: TestApp,
  who: { headers: Record<string, string> },
  body: Record<string, unknown>,
) =>
  t.app.inject({ method: 'POST', url: '/api/v2/peatio/market/orders', headers: who.headers, payload: body });
