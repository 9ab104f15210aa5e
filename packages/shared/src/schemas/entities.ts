/**
 * Response entities of the Peatio and Barong APIs that both the server and the web app read. Every amount is a
 * decimal string.
 */

/** One account of a member: a currency and its available and locked amounts. */
export interface MemberAccount {
  currency: string;
  balance: string;
  locked: string;
}

/** Peatio `GET /account/me`: the signed-in member. */
export interface MemberEntity {
  uid: string;
  email: string;
  level: number;
  role: string;
  group: string;
  state: string;
  accounts: MemberAccount[];
  created_at: string;
  updated_at: string;
}

/** One currency of a portfolio (trading spec §3 Balance row), valued in USDT. */
export interface PortfolioRow {
  currency: string;
  /** Available (spendable) amount. */
  balance: string;
  /** Held by open orders and pending withdrawals. */
  locked: string;
  /** balance + locked. */
  total: string;
  /** Value of one unit in USDT; 1 when there is no price (spec §3: "1 if none"). */
  currency_usdt: string;
  /** total × currency_usdt in USDT, rounded down to USDT's precision. */
  value: string;
}

/**
 * Peatio `GET /account/portfolio` and `/account/update/portfolio`: every currency the user holds (total not
 * zero) and `total`, the sum of the values in `currency` (USDT), computed afresh on each call; `at` is when
 * (Unix seconds).
 */
export interface Portfolio {
  currency: 'usdt';
  total: string;
  balances: PortfolioRow[];
  at: number;
}

/** Barong `POST /identity`: the account state the login flow branches on (`pending` → verify account). */
export interface IdentityState {
  state: string;
  level: number;
}

/**
 * A Peatio ticker: 24-hour rolling figures of one market (trading spec §3 Ticker). `sell` is the best ask and
 * `buy` the best bid ("0" when that side of the book is empty). `volume`, `vol` and
 * `total_volume_base_currency` are the traded amount in the base currency; `amount` and `total_volume` the
 * traded total in the quote currency. `usd` is `last` in US dollars (USDT counted as 1 USD); `inr` is `null`
 * while the exchange has no INR rate.
 */
export interface TickerFigures {
  low: string;
  high: string;
  open: string;
  last: string;
  sell: string;
  buy: string;
  vol: string;
  volume: string;
  amount: string;
  total_volume: string;
  total_volume_base_currency: string;
  avg_price: string;
  price_change_percent: string;
  usd: string;
  inr: string | null;
  base_unit: string;
  quote_unit: string;
}

/** `GET /public/markets/tickers` (per market id) and `GET /public/markets/{id}/tickers`. */
export interface TickerEntity {
  at: number;
  ticker: TickerFigures;
}

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

/** A public trade (`GET /public/markets/{id}/trades`), in the stream's fields and the entity's. */
export interface PublicTrade {
  id: number;
  /** The same as `id`, as the `{market}.trades` stream carries it. */
  tid: number;
  price: string;
  amount: string;
  total: string;
  market: string;
  created_at: string;
  /** Unix seconds. */
  date: number;
  /** The taker's side. */
  taker_type: 'buy' | 'sell';
  /** The same as `taker_type`. */
  type: 'buy' | 'sell';
}

/** Which kind of stop a stop order is; `null` for plain limit and market orders. */
export type StopLossType = 'stop_loss' | 'take_profit' | null;

/** Fields of the Peatio order entity beyond the basics: the stop kind and the market's currencies. */
export interface OrderCurrencies {
  stop_loss_type: StopLossType;
  /** The market's quote currency (what a buy pays). */
  bid: string;
  /** The market's base currency (what a sell gives). */
  ask: string;
}

/** Fields of `GET /public/currencies` added for the spec's Currency entity. */
export interface CurrencyValuation {
  /** Value of one unit in USDT ("1" when there is no price). */
  price: string;
  /** The swap fee as a fraction (0.001 = 0.1%); `swap_fee` carries the same value. */
  swap_fees: string;
}
