import type { listOrdersQuery } from '@exchange/shared';
import type pg from 'pg';
import type { z } from 'zod';
import { type OrderRow, orderViewFromRow, type Units } from '../../core/persistence.ts';
import type { Keyset } from '../../db/keyset.ts';
import type { TradeRow } from '../market-data/repository.ts';
import { orderEntity } from './presenters.ts';

/** The user's orders with Peatio's filters, newest first by default, and the total for the `Total` header. */
export async function listOrders(
  db: pg.Pool,
  units: Units,
  userId: number,
  q: z.infer<typeof listOrdersQuery>,
) {
  const states = q.state === undefined ? null : Array.isArray(q.state) ? q.state : [q.state];
  const where = `user_id = $1 and ($2::text is null or market_id = $2) and ($3::text[] is null or state = any($3))
    and ($4::text is null or ord_type = $4) and ($5::text is null or side = $5)`;
  const params = [userId, q.market ?? null, states, q.ord_type ?? null, q.type ?? null];
  const [rows, total] = await Promise.all([
    db.query<OrderRow>(
      `select * from orders where ${where} order by id ${q.order_by === 'asc' ? 'asc' : 'desc'} limit $6 offset $7`,
      [...params, q.limit, (q.page - 1) * q.limit],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from orders where ${where}`, params),
  ]);
  return {
    items: rows.rows.map((r) => orderEntity(units, orderViewFromRow(units, r))),
    total: total.rows[0]!.n,
  };
}

/** One order of the user by id or uuid; undefined when it is not theirs. */
export async function findOwnOrder(db: pg.Pool, units: Units, userId: number, idOrUuid: string) {
  const byUuid = /^[0-9a-f-]{36}$/.test(idOrUuid);
  if (!byUuid && !/^\d{1,18}$/.test(idOrUuid)) return undefined;
  const row = (
    await db.query<OrderRow>(
      `select * from orders where user_id = $1 and ${byUuid ? 'uuid = $2::uuid' : 'id = $2::bigint'}`,
      [userId, idOrUuid],
    )
  ).rows[0];
  return row ? orderEntity(units, orderViewFromRow(units, row)) : undefined;
}

/**
 * A trade from the user's side (`$1`), as Peatio's Trade entity: price, amount, total, market, side, the user's
 * order, and the fee: its currency, its amount and its rate (`fee`, the rate of the user's order on its side).
 */
const USER_TRADE = `select t.id, trim_scale(t.price)::text as price, trim_scale(t.amount)::text as amount,
    trim_scale(t.total)::text as total, t.market_id as market, t.created_at, t.taker_type,
    case when t.taker_id = $1 then t.taker_type else (case t.taker_type when 'buy' then 'sell' else 'buy' end) end as side,
    o.id as order_id,
    trim_scale(case when t.taker_id = $1 then o.taker_fee else o.maker_fee end)::text as fee,
    trim_scale(case when t.taker_id = $1 then t.taker_fee else t.maker_fee end)::text as fee_amount,
    case when (t.taker_id = $1) = (t.taker_type = 'buy') then m.base_unit else m.quote_unit end as fee_currency
  from trades t join markets m on m.id = t.market_id
  join orders o on o.id = case when t.taker_id = $1 then t.taker_order_id else t.maker_order_id end`;

/** A row of {@link USER_TRADE}: the public trade, with the user's side, order and fee. */
interface UserTradeRow extends TradeRow {
  side: 'buy' | 'sell';
  order_id: string;
  fee: string;
  fee_amount: string;
  fee_currency: string;
}

const userTrade = (r: UserTradeRow) => ({ ...r, id: Number(r.id), order_id: Number(r.order_id) });

/** The user's trades, newest first, from their side of each trade. */
export async function listUserTrades(
  db: pg.Pool,
  userId: number,
  market: string | undefined,
  limit: number,
  page: number,
) {
  const where = `(maker_id = $1 or taker_id = $1) and ($2::text is null or t.market_id = $2)`;
  const [rows, total] = await Promise.all([
    db.query<UserTradeRow>(`${USER_TRADE} where ${where} order by t.id desc limit $3 offset $4`, [
      userId,
      market ?? null,
      limit,
      (page - 1) * limit,
    ]),
    db.query<{ n: number }>(`select count(*)::int as n from trades t where ${where}`, [
      userId,
      market ?? null,
    ]),
  ]);
  return { items: rows.rows.map(userTrade), total: total.rows[0]!.n };
}

/** A {@link Keyset} page of all the user's orders, oldest first, as Peatio's order entity (the data export). */
export async function ordersAfter(db: pg.Pool, units: Units, userId: number, page: Keyset) {
  const rows = await db.query<OrderRow>(
    'select * from orders where user_id = $1 and id > $2 and id <= $3 order by id limit $4',
    [userId, page.after, page.upTo, page.limit],
  );
  return rows.rows.map((r) => orderEntity(units, orderViewFromRow(units, r)));
}

/** A {@link Keyset} page of all the user's trades, oldest first, from their side (the data export). */
export async function tradesAfter(db: pg.Pool, userId: number, page: Keyset) {
  const rows = await db.query<UserTradeRow>(
    `${USER_TRADE} where (t.maker_id = $1 or t.taker_id = $1) and t.id > $2 and t.id <= $3 order by t.id limit $4`,
    [userId, page.after, page.upTo, page.limit],
  );
  return rows.rows.map(userTrade);
}

/** The trades of one of the user's orders, oldest first (Peatio's `trades` of `GET /market/orders/{id}`). */
export async function orderTrades(db: pg.Pool, userId: number, orderId: number) {
  const rows = await db.query<UserTradeRow>(
    `${USER_TRADE} where (t.taker_id = $1 and t.taker_order_id = $2) or (t.maker_id = $1 and t.maker_order_id = $2)
     order by t.id`,
    [userId, orderId],
  );
  return rows.rows.map(userTrade);
}

/** The user's committed balances in every currency (zero rows included). */
export async function listBalances(db: pg.Pool, userId: number) {
  const rows = await db.query<{
    currency: string;
    name: string;
    precision: number;
    balance: string;
    locked: string;
  }>(
    `select c.id as currency, c.name, c.precision, trim_scale(coalesce(b.balance, 0))::text as balance,
       trim_scale(coalesce(b.locked, 0))::text as locked
     from currencies c left join balances b on b.currency_id = c.id and b.user_id = $1 where c.visible order by c.position, c.id`,
    [userId],
  );
  return rows.rows;
}

/** The user's favourite market ids, oldest first. */
export async function listFavourites(db: pg.Pool, userId: number): Promise<string[]> {
  const rows = await db.query<{ market_id: string }>(
    'select market_id from favourite_markets where user_id = $1 order by created_at, market_id',
    [userId],
  );
  return rows.rows.map((r) => r.market_id);
}

/** Marks (or unmarks) a market as one of the user's favourites; repeating either is harmless. */
export async function setFavourite(
  db: pg.Pool,
  userId: number,
  marketId: string,
  on: boolean,
): Promise<void> {
  await (on
    ? db.query('insert into favourite_markets (user_id, market_id) values ($1, $2) on conflict do nothing', [
        userId,
        marketId,
      ])
    : db.query('delete from favourite_markets where user_id = $1 and market_id = $2', [userId, marketId]));
}
