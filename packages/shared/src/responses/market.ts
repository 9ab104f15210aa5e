import { z } from 'zod';
import { decimal, isoTime } from './common.ts';

/**
 * Peatio's public answers (markets, tickers, books, trades, k-lines, currencies, fees, service state); the
 * member's orders and trades are in orders.ts, balances and the member in account.ts. Field names as Peatio 2.6
 * has them, amounts as decimal strings.
 */

/** `GET /public/timestamp`: the server time, a bare JSON string. */
export const serverTimeResponse = isoTime;

/** `GET /public/member-levels`: the least account level per privilege. */
export const memberLevelsResponse = z.object({
  deposit: z.object({ minimum_level: z.number().int() }),
  withdraw: z.object({ minimum_level: z.number().int() }),
  trading: z.object({ minimum_level: z.number().int() }),
});

/** `GET /public/health/ready`. */
export const readinessResponse = z.object({
  status: z.literal('ready'),
  roles: z.array(z.string()),
  core: z.object({ active: z.boolean(), term: z.number().int().nullable() }),
});

/** A market of `GET /public/markets`. */
export const marketResponse = z
  .object({
    id: z.string(),
    symbol: z.string(),
    name: z.string(),
    type: z.literal('spot'),
    base_unit: z.string(),
    quote_unit: z.string(),
    min_price: decimal,
    max_price: decimal,
    min_amount: decimal,
    amount_precision: z.number().int(),
    price_precision: z.number().int(),
    state: z.string(),
  })
  .meta({
    id: 'Market',
    examples: [
      {
        id: 'ethbtc',
        symbol: 'ethbtc',
        name: 'ETH/BTC',
        type: 'spot',
        base_unit: 'eth',
        quote_unit: 'btc',
        min_price: '0.0001',
        max_price: '0',
        min_amount: '0.001',
        amount_precision: 4,
        price_precision: 4,
        state: 'enabled',
      },
    ],
  });

/**
 * A Peatio ticker: 24-hour rolling figures of one market (docs/trading.md#data Ticker). `sell` is the best ask and
 * `buy` the best bid ("0" when that side of the book is empty). `volume`, `vol` and
 * `total_volume_base_currency` are the traded amount in the base currency; `amount` and `total_volume` the
 * traded total in the quote currency. `usd` is `last` in US dollars (USDT counted as 1 USD); `inr` is `null`
 * while the exchange has no INR rate.
 */
export const tickerFiguresResponse = z
  .object({
    low: decimal,
    high: decimal,
    open: decimal,
    last: decimal,
    sell: decimal,
    buy: decimal,
    vol: decimal,
    volume: decimal,
    amount: decimal,
    total_volume: decimal,
    total_volume_base_currency: decimal,
    avg_price: decimal,
    price_change_percent: z.string(),
    usd: decimal,
    inr: decimal.nullable(),
    base_unit: z.string(),
    quote_unit: z.string(),
  })
  .meta({ id: 'TickerFigures' });
export type TickerFigures = z.infer<typeof tickerFiguresResponse>;

/** `GET /public/markets/tickers` (per market id) and `GET /public/markets/{id}/tickers`. */
export const tickerResponse = z
  .object({ at: z.number().int(), ticker: tickerFiguresResponse })
  .meta({ id: 'Ticker' });
export type TickerEntity = z.infer<typeof tickerResponse>;

/**
 * One market of the `global.tickers` stream, as Peatio's ranger sends it: the figures flat (`event[market].last`),
 * with `at` (Unix seconds) and the market's `name` ("ETH/BTC").
 */
export type TickerEvent = TickerFigures & { at: number; name: string };

/** The `{at, ticker}` form of a `global.tickers` entry (what the REST call answers). */
export function tickerFromEvent(event: TickerEvent): TickerEntity {
  const { at, name: _name, ...ticker } = event;
  return { at, ticker };
}

/** A price level `[price, amount]`. */
const level = z.tuple([decimal, decimal]);

/** `GET /public/markets/{id}/depth`: asks ascending, bids descending. */
export const depthResponse = z.object({
  timestamp: z.number().int().optional(),
  asks: z.array(level),
  bids: z.array(level),
});

/** A public trade (`GET /public/markets/{id}/trades`), in the stream's fields and the entity's. */
export const publicTradeResponse = z
  .object({
    id: z.number().int(),
    /** The same as `id`, as the `{market}.trades` stream carries it. */
    tid: z.number().int(),
    price: decimal,
    amount: decimal,
    total: decimal,
    market: z.string(),
    created_at: isoTime,
    /** Unix seconds. */
    date: z.number().int(),
    /** The taker's side. */
    taker_type: z.enum(['buy', 'sell']),
    /** The same as `taker_type`. */
    type: z.enum(['buy', 'sell']),
  })
  .meta({ id: 'PublicTrade' });
export type PublicTrade = z.infer<typeof publicTradeResponse>;

/** `GET /public/markets/{id}/k-line`: candles `[t, o, h, l, c, v]` as numbers, as charting clients expect. */
export const klineResponse = z.array(
  z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()]),
);

/** A network of a currency in `GET /public/currencies`. */
export const currencyNetworkResponse = z
  .object({
    currency_id: z.string(),
    blockchain_key: z.string(),
    protocol: z.string().nullable(),
    explorer_transaction: z.string().nullable(),
    explorer_address: z.string().nullable(),
    min_deposit_amount: decimal,
    min_withdraw_amount: decimal,
    withdraw_fee: decimal,
    deposit_fee: decimal,
    deposit_enabled: z.boolean(),
    withdraw_enabled: z.boolean(),
    withdrawal_enabled: z.boolean(),
    min_confirmations: z.number().int(),
  })
  .meta({ id: 'CurrencyNetwork' });

/**
 * A currency of `GET /public/currencies` (Peatio's fields, the default network's at the top level, and every
 * network). `price` is the value of one unit in USDT ("1" when there is no price); `swap_fees` equals `swap_fee`.
 */
export const currencyResponse = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    homepage: z.string().nullable(),
    type: z.enum(['coin', 'fiat']),
    precision: z.number().int(),
    icon_url: z.string().nullable(),
    position: z.number().int(),
    deposit_fee: decimal,
    swap_fee: decimal,
    explorer_transaction: z.string(),
    explorer_address: z.string(),
    min_deposit_amount: decimal,
    min_withdraw_amount: decimal,
    withdraw_fee: decimal,
    deposit_enabled: z.boolean(),
    withdrawal_enabled: z.boolean(),
    min_confirmations: z.number().int(),
    withdraw_limit_24h: decimal,
    withdraw_limit_72h: decimal,
    /** 10^precision: 1e18 for ETH (a JSON number beyond 2^53; exact as a double all the same). */
    base_factor: z.number().min(1),
    swap_fees: decimal,
    price: decimal,
    networks: z.array(currencyNetworkResponse),
  })
  .meta({ id: 'Currency' });

/** Fields of `GET /public/currencies` added for the spec's Currency entity. */
export type CurrencyValuation = Pick<z.infer<typeof currencyResponse>, 'price' | 'swap_fees'>;

/** A limit of `GET /public/withdraw_limits` (Peatio's shape; amounts in the currency, "0": none). */
export const publicWithdrawLimitResponse = z
  .object({
    group: z.literal('any'),
    kyc_level: z.number().int(),
    currency: z.string(),
    limit_24_hour: decimal,
    limit_1_month: decimal,
    limit_per_withdrawal: decimal,
    updated_at: isoTime,
  })
  .meta({ id: 'WithdrawLimit' });

/** `GET /public/trading_fees`. */
export const tradingFeeResponse = z
  .object({
    id: z.number().int(),
    group: z.string(),
    market_id: z.string(),
    maker: decimal,
    taker: decimal,
    created_at: isoTime,
  })
  .meta({ id: 'TradingFee' });

/** `GET /public/trading_level`: the fees per trading level. */
export const tradingLevelResponse = z.object({ level: z.string(), maker: decimal, taker: decimal });
