import type pg from 'pg';
import type { Units } from '../../core/persistence.ts';
import { type OrderEntity, orderEntity } from '../trading/presenters.ts';
import { restingOrders } from './repository.ts';

/** Peatio's `GET /public/markets/{market}/order-book`: the open orders of each side, best first. */
export interface OrderBookEntity {
  asks: OrderEntity[];
  bids: OrderEntity[];
}

/**
 * The committed orders resting in a market's book (open: `wait` or partly filled `pending`; limit orders and
 * triggered stop-limit orders, as the depth counts them): asks by price ascending, bids by price descending,
 * each then by time. No owner is shown.
 */
export async function openOrderBook(
  db: pg.Pool,
  units: Units,
  market: string,
  asksLimit: number,
  bidsLimit: number,
): Promise<OrderBookEntity> {
  const side = async (name: 'sell' | 'buy', limit: number) =>
    (await restingOrders(db, units, market, name, limit)).map((order) => orderEntity(units, order));
  const [asks, bids] = await Promise.all([side('sell', asksLimit), side('buy', bidsLimit)]);
  return { asks, bids };
}
