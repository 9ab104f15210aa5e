import { z } from 'zod';
import { decimal, isoTime } from './common.ts';

/**
 * Peatio's order answers: the order entity, the member's trades, an order with its trades, and a market's resting
 * orders. Field names as Peatio 2.6 has them, amounts as decimal strings.
 */

/** Which kind of stop a stop order is; `null` for plain limit and market orders. */
export type StopLossType = 'stop_loss' | 'take_profit' | null;

/** Peatio's order entity: decimals as strings, ISO timestamps; `bid`/`ask` the market's quote and base. */
export const orderResponse = z
  .object({
    id: z.number().int(),
    uuid: z.string(),
    side: z.enum(['buy', 'sell']),
    ord_type: z.string(),
    price: decimal.nullable(),
    stop_price: decimal.nullable(),
    avg_price: decimal,
    state: z.string(),
    market: z.string(),
    market_type: z.literal('spot'),
    created_at: isoTime,
    updated_at: isoTime,
    origin_volume: decimal,
    remaining_volume: decimal,
    executed_volume: decimal,
    maker_fee: decimal,
    taker_fee: decimal,
    trades_count: z.number().int(),
    stop_loss_type: z.enum(['stop_loss', 'take_profit']).nullable(),
    /**
     * How long the order may wait: `gtc` (the rest rests in the book), `ioc` (the rest is cancelled at once; market
     * orders are `ioc`), `fok` (all at once or nothing). Not a Peatio field: the common exchange name.
     */
    time_in_force: z.enum(['gtc', 'ioc', 'fok']),
    /** Whether the order was placed post-only: it never takes liquidity. Not a Peatio field: the common name. */
    post_only: z.boolean(),
    /** The market's quote currency (what a buy pays). */
    bid: z.string(),
    /** The market's base currency (what a sell gives). */
    ask: z.string(),
    /**
     * Only in the answer to a placement the engine cancelled at once: why (`self_trade`: it met the user's own
     * order; `unfilled`: a market or ioc order's remainder; `budget`: a market buy's hold ran out; `fill_or_kill`: a
     * fok order the book could not fill wholly, untouched; `post_only`: a post-only order that would have taken,
     * untouched).
     */
    cancel_reason: z
      .enum(['user', 'self_trade', 'unfilled', 'budget', 'fill_or_kill', 'post_only'])
      .optional(),
  })
  .meta({
    id: 'Order',
    examples: [
      {
        id: 42,
        uuid: '00000000-0000-4000-8000-00000000002a',
        side: 'sell',
        ord_type: 'limit',
        price: '0.07',
        stop_price: null,
        avg_price: '0',
        state: 'wait',
        market: 'ethbtc',
        market_type: 'spot',
        created_at: '2026-05-01T09:30:00.123Z',
        updated_at: '2026-05-01T09:30:00.123Z',
        origin_volume: '0.5',
        remaining_volume: '0.5',
        executed_volume: '0',
        maker_fee: '0.001',
        taker_fee: '0.001',
        trades_count: 0,
        stop_loss_type: null,
        time_in_force: 'gtc',
        post_only: false,
        bid: 'btc',
        ask: 'eth',
      },
    ],
  });
export type OrderEntity = z.infer<typeof orderResponse>;

/** Fields of the Peatio order entity beyond the basics: the stop kind and the market's currencies. */
export type OrderCurrencies = Pick<OrderEntity, 'stop_loss_type' | 'bid' | 'ask'>;

/** A trade from the member's side: the order, the side, and the fee (rate, amount, currency). */
export const userTradeResponse = z
  .object({
    id: z.number().int(),
    price: decimal,
    amount: decimal,
    total: decimal,
    market: z.string(),
    created_at: isoTime,
    taker_type: z.enum(['buy', 'sell']),
    side: z.enum(['buy', 'sell']),
    order_id: z.number().int(),
    fee: decimal,
    fee_amount: decimal,
    fee_currency: z.string(),
  })
  .meta({ id: 'Trade' });

/** `GET /market/orders/{id}`: the order with its trades. */
export const orderWithTradesResponse = orderResponse
  .extend({ trades: z.array(userTradeResponse) })
  .meta({ id: 'OrderWithTrades' });

/** `GET /public/markets/{id}/order-book`: resting orders per side, best first. */
export const orderBookResponse = z.object({ asks: z.array(orderResponse), bids: z.array(orderResponse) });
export type OrderBookEntity = z.infer<typeof orderBookResponse>;
