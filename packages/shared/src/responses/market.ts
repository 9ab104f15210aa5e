import { z } from 'zod';
import { decimal, isoTime } from './common.ts';

/**
 * Peatio's public answers (markets, tickers, books, trades, k-lines, currencies, fees, service state) and the
 * member's orders, trades and balances. Field names as Peatio 2.6 has them, amounts as decimal strings.
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

/** Peatio's PaymentAddress as an account carries it. */
export const accountDepositAddressResponse = z
  .object({
    currencies: z.array(z.string()),
    blockchain_key: z.string(),
    address: z.string(),
    state: z.literal('active'),
  })
  .meta({ id: 'AccountDepositAddress' });

/**
 * An account of `GET /account/balances`: available and locked amounts, the value of one unit in USDT, and for a
 * currency with a network its deposit address (null until one is handed out).
 */
export const balanceResponse = z
  .object({
    currency: z.string(),
    name: z.string(),
    precision: z.number().int(),
    balance: decimal,
    locked: decimal,
    usdt_price: decimal,
    deposit_address: accountDepositAddressResponse.nullable().optional(),
  })
  .meta({ id: 'Balance' });

/** One account of a member: a currency and its available and locked amounts. */
export const memberAccountResponse = z.object({ currency: z.string(), balance: decimal, locked: decimal });
export type MemberAccount = z.infer<typeof memberAccountResponse>;

/** Peatio `GET /account/me` and `/account/members/me`: the signed-in member. */
export const memberResponse = z
  .object({
    uid: z.string(),
    email: z.string(),
    level: z.number().int(),
    role: z.string(),
    group: z.string(),
    state: z.string(),
    accounts: z.array(memberAccountResponse),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: 'Member' });
export type MemberEntity = z.infer<typeof memberResponse>;

/** One currency of a portfolio (docs/wallet.md#data Balance row), valued in USDT. */
export const portfolioRowResponse = z.object({
  currency: z.string(),
  /** Available (spendable) amount. */
  balance: decimal,
  /** Held by open orders and pending withdrawals. */
  locked: decimal,
  /** balance + locked. */
  total: decimal,
  /** Value of one unit in USDT; 1 when there is no price (docs/wallet.md#data: "1 if none"). */
  currency_usdt: decimal,
  /** total × currency_usdt in USDT, rounded down to USDT's precision. */
  value: decimal,
});
export type PortfolioRow = z.infer<typeof portfolioRowResponse>;

/**
 * Peatio `GET /account/portfolio` and `/account/update/portfolio`: every currency the user holds (total not
 * zero) and `total`, the sum of the values in `currency` (USDT), computed afresh on each call; `at` is when
 * (Unix seconds).
 */
export const portfolioResponse = z.object({
  currency: z.literal('usdt'),
  total: decimal,
  balances: z.array(portfolioRowResponse),
  at: z.number().int(),
});
export type Portfolio = z.infer<typeof portfolioResponse>;

/** `GET /account/balances/pie_chart`. */
export const pieChartResponse = z.array(z.object({ currency: z.string(), total: decimal, value: decimal }));

/** `GET /account/balances/line_chart`: the total in USDT at the end of each of the last days. */
export const lineChartResponse = z.array(z.object({ date: z.string(), value: decimal }));

/** Barong `POST /identity`: the account state the login flow branches on (`pending` → verify account). */
export interface IdentityState {
  state: string;
  level: number;
}
