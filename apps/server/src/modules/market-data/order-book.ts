import type pg from 'pg';
import { orderViewFromRow, type Units } from '../../core/persistence.ts';
import { type OrderEntity, orderEntity } from '../trading/presenters.ts';

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
  const side = async (name: 'sell' | 'buy', limit: number) => {
    const rows = await db.query(
      `select * from orders where market_id = $1 and state in ('wait', 'pending') and side = $2
         and price is not null and (ord_type = 'limit' or (ord_type <> 'stop_loss_order' and triggered_at is not null))
       order by price ${name === 'sell' ? 'asc' : 'desc'}, seq limit $3`,
      [market, name, limit],
    );
    return rows.rows.map((row) => orderEntity(units, orderViewFromRow(units, row)));
  };
  const [asks, bids] = await Promise.all([side('sell', asksLimit), side('buy', bidsLimit)]);
  return { asks, bids };
}
