export { Rejection, type RejectionCode } from './codes.ts';

/** Order side. */
export type Side = 'buy' | 'sell';
/** Order types, with the Peatio seed names. */
export type OrdType = 'limit' | 'market' | 'stop_loss_limit' | 'take_profit_limit' | 'stop_loss_order';
/** Order states: `wait` = New (resting, nothing filled; also untriggered stops), `pending` = Partial. */
export type OrderState = 'wait' | 'pending' | 'done' | 'cancel' | 'reject';
/**
 * How long a limit order may wait for a counterparty:
 * - `gtc` (good till cancelled, the default): what does not fill at once rests in the book;
 * - `ioc` (immediate or cancel): fills what crosses now, the rest is cancelled (reason `unfilled`); never rests;
 * - `fok` (fill or kill): fills wholly at once or not at all; when the book cannot fill all of it (within the
 *   limit price, before one of the user's own orders), the order is cancelled untouched (reason `fill_or_kill`):
 *   no trade, its hold released whole.
 * Stop orders wait, so they are `gtc` only. Market orders fill what the book has and cancel the rest: their
 * view reports `ioc`, and a PlaceOrder of type `market` carries no `timeInForce`.
 */
export type TimeInForce = 'gtc' | 'ioc' | 'fok';
/** Market state; a disabled market refuses new orders (open orders stay and can be cancelled). */
export type MarketState = 'enabled' | 'disabled';

/** A currency; amounts are bigint integers of 10^-precision. */
export interface CurrencyConfig {
  id: string;
  precision: number;
}

/**
 * A spot market. Prices are integer ticks of 10^-pricePrecision quote per 1 whole base; volumes are integer
 * steps of 10^-amountPrecision base. Requires pricePrecision + amountPrecision <= quote precision and
 * amountPrecision <= base precision, so that every conversion to currency units is an exact multiplication.
 */
export interface MarketConfig {
  id: string;
  base: string;
  quote: string;
  pricePrecision: number;
  amountPrecision: number;
  /** Inclusive bounds for price and stop price, in ticks. */
  minPrice: bigint;
  maxPrice: bigint;
  /** Minimum order volume, in steps. */
  minAmount: bigint;
  state: MarketState;
}

/** Maker/taker fee rates in parts per million (1000 = 0.001 = 0.1%). */
export interface FeeRates {
  maker: bigint;
  taker: bigint;
}

/**
 * A fee rule. Resolution for (market, level), most specific first: market+level, market only, level only,
 * then the defaults.
 */
export interface FeeRule extends FeeRates {
  market?: string;
  level?: number;
}

/** Everything the engine needs at construction. */
export interface EngineConfig {
  currencies: CurrencyConfig[];
  markets: MarketConfig[];
  fees?: { defaultMaker?: bigint; defaultTaker?: bigint; rules?: FeeRule[] };
  /** User → trading level; users not listed are level 0. */
  tradingLevels?: Array<[user: number, level: number]>;
  /** Currency of card top-ups and card fees (default `usdt`). */
  cardCurrency?: string;
}

interface CommandBase {
  /** Epoch milliseconds; the engine's only notion of time. */
  at: number;
  /** Caller's idempotency key; echoed in the result, not deduplicated by the engine. */
  ref?: string;
}

/** Place an order. `price`/`stopPrice` in ticks, `volume` in steps. */
export interface PlaceOrder extends CommandBase {
  type: 'PlaceOrder';
  user: number;
  market: string;
  side: Side;
  ordType: OrdType;
  price?: bigint;
  stopPrice?: bigint;
  volume: bigint;
  /** Limit orders only (stop orders accept `gtc`); absent means `gtc`. */
  timeInForce?: TimeInForce;
  /**
   * Limit orders with `gtc` only: the order must add liquidity. If it would take on arrival (the best opposite
   * price crosses its limit), it is cancelled untouched (reason `post_only`): no trade, its hold released whole.
   */
  postOnly?: boolean;
}
/** Cancel one open order of the user. */
export interface CancelOrder extends CommandBase {
  type: 'CancelOrder';
  user: number;
  orderId: number;
}
/** Cancel all open orders of the user, optionally only in one market and/or on one side. */
export interface CancelAll extends CommandBase {
  type: 'CancelAll';
  user: number;
  market?: string;
  side?: Side;
}
/** Money in from the outside world: `external` → user balance. */
export interface Credit extends CommandBase {
  type: 'Credit';
  user: number;
  currency: string;
  amount: bigint;
  kind: 'deposit' | 'adjustment';
}
/** Money out to the outside world: user balance → `external`; refused if not enough available. */
export interface Debit extends CommandBase {
  type: 'Debit';
  user: number;
  currency: string;
  amount: bigint;
  kind: 'withdrawal' | 'adjustment';
}
/**
 * Lock `amount` (fee included) for a withdrawal: balance → locked. With `fromExternal`, the amount comes from
 * `external` straight into the hold instead, never through the user's balance: funds that arrived for the user
 * but were never credited, sent back where they came from (a deposit returned under the travel rule).
 */
export interface HoldWithdrawal extends CommandBase {
  type: 'HoldWithdrawal';
  user: number;
  currency: string;
  amount: bigint;
  withdrawalId: string;
  fromExternal?: boolean;
}
/**
 * The held withdrawal leaves: `amount - fee` to `external`, `fee` to `fees`. With `toUser` it is an internal
 * transfer: `amount - fee` goes to that user's balance instead (never to `external`).
 */
export interface SettleWithdrawal extends CommandBase {
  type: 'SettleWithdrawal';
  withdrawalId: string;
  fee: bigint;
  toUser?: number;
}
/**
 * The held withdrawal is returned: locked → balance. With `toExternal`, locked → `external` instead: a hold taken
 * `fromExternal` whose funds did not leave goes back to being uncredited, never to the user's balance.
 */
export interface ReleaseWithdrawal extends CommandBase {
  type: 'ReleaseWithdrawal';
  withdrawalId: string;
  toExternal?: boolean;
}
/** Transfer to another user of this exchange, no fee. */
export interface InternalTransfer extends CommandBase {
  type: 'InternalTransfer';
  from: number;
  to: number;
  currency: string;
  amount: bigint;
}
/**
 * Swap `amount` of `from` into `to`.
 * - `mode: 'book'`: an immediate market order against the book of the market that trades the pair, with
 *   `feePpm` as the taker fee. Selling the base: `amount` must be whole amount steps. Buying the base with
 *   the quote: buys the largest volume `amount` can pay for at the current book; the rest stays available.
 * - `mode: {price, scale?}`: at a quoted price against the `swap` liquidity account. `price / scale` is units
 *   of `to` per 1 whole `from` exactly (`scale` 10^8 when absent), so a price such as 1/65025 is kept exact.
 *   gross = floor(amount·price·10^toPrec / (10^fromPrec·scale)),
 *   fee = ceil(gross·feePpm/10^6); the user gets gross − fee, `fees` gets fee, `swap` gets `amount`.
 */
export interface Swap extends CommandBase {
  type: 'Swap';
  user: number;
  from: string;
  to: string;
  amount: bigint;
  mode: 'book' | { price: bigint; scale?: bigint };
  feePpm: bigint;
}
/** Load the card: user balance → `card` float (amount) and → `fees` (fee), in the card currency. */
export interface CardTopUp extends CommandBase {
  type: 'CardTopUp';
  user: number;
  amount: bigint;
  fee: bigint;
}
/** A card fee (activation, annual, ...): user balance → `fees`, in the card currency. */
export interface CardFee extends CommandBase {
  type: 'CardFee';
  user: number;
  amount: bigint;
}
/** Return card float to the user (failed or reversed top-up): `card` → user balance. */
export interface CardRefund extends CommandBase {
  type: 'CardRefund';
  user: number;
  amount: bigint;
}
/** Fund the swap liquidity account from outside: `external` → `swap`. */
export interface FundLiquidity extends CommandBase {
  type: 'FundLiquidity';
  currency: string;
  amount: bigint;
}
/** Take funds out of the swap liquidity account: `swap` → `external`. */
export interface DrainLiquidity extends CommandBase {
  type: 'DrainLiquidity';
  currency: string;
  amount: bigint;
}
/** Set a user's trading level (affects fees of orders placed afterwards). */
export interface SetTradingLevel extends CommandBase {
  type: 'SetTradingLevel';
  user: number;
  level: number;
}
/** Add or replace a fee rule (affects orders placed afterwards). */
export interface SetFeeRule extends CommandBase {
  type: 'SetFeeRule';
  rule: FeeRule;
}
/** Enable or disable a market. */
export interface SetMarketState extends CommandBase {
  type: 'SetMarketState';
  market: string;
  state: MarketState;
}
/**
 * Add a market while the engine runs: its book starts empty and it trades at once when `enabled`. With `fees`,
 * a fee rule for this market (any level) is set in the same command, so the market never trades at a rate
 * nobody chose. Refused when the id is taken or the config breaks a rule of {@link MarketConfig}.
 */
export interface AddMarket extends CommandBase {
  type: 'AddMarket';
  market: MarketConfig;
  fees?: FeeRates;
}
/**
 * Change a market's bounds, state and/or its fee rule (any level) in one step. Currencies and precisions never
 * change: open orders are kept in the market's ticks and steps. New bounds and fees apply to orders placed
 * afterwards; resting orders keep theirs.
 */
export interface UpdateMarket extends CommandBase {
  type: 'UpdateMarket';
  market: string;
  minPrice?: bigint;
  maxPrice?: bigint;
  minAmount?: bigint;
  state?: MarketState;
  fees?: FeeRates;
}

/** Every command the engine accepts. */
export type Command =
  | PlaceOrder
  | CancelOrder
  | CancelAll
  | Credit
  | Debit
  | HoldWithdrawal
  | SettleWithdrawal
  | ReleaseWithdrawal
  | InternalTransfer
  | Swap
  | CardTopUp
  | CardFee
  | CardRefund
  | FundLiquidity
  | DrainLiquidity
  | SetTradingLevel
  | SetFeeRule
  | SetMarketState
  | AddMarket
  | UpdateMarket;

/** A plain, immutable copy of an order's state. Amounts in currency units, price/volume in ticks/steps. */
export interface OrderView {
  id: number;
  user: number;
  market: string;
  side: Side;
  ordType: OrdType;
  price: bigint | null;
  stopPrice: bigint | null;
  originVolume: bigint;
  remainingVolume: bigint;
  executedVolume: bigint;
  /** What is still held for this order (quote units for buys, base units for sells). */
  locked: bigint;
  /** Gross units received (base for buys, quote for sells), before fees. */
  fundsReceived: bigint;
  /** Units given (quote for buys, base for sells); avg price = quote total / executed volume. */
  fundsSpent: bigint;
  tradesCount: number;
  state: OrderState;
  createdAt: number;
  updatedAt: number;
  makerFee: bigint;
  takerFee: bigint;
  /** When a stop order was triggered; null for untriggered stops and plain orders. */
  triggeredAt: number | null;
  /** `gtc` for orders that may rest (limit and stop orders by default), `ioc` for market orders. */
  timeInForce: TimeInForce;
  /** Whether the order was placed post-only (it never takes liquidity). */
  postOnly: boolean;
  /** FIFO priority within its price level (book) or stop price (untriggered stops); smaller goes first. */
  seq: number;
}

/** Persisted state (besides config): enough to continue exactly where an engine stopped. */
export interface EngineState {
  nextOrderId: number;
  nextTradeId: number;
  nextSeq: number;
  balances: Array<{ user: number; currency: string; balance: bigint; locked: bigint }>;
  system: Array<{ account: 'fees' | 'external' | 'card' | 'swap'; currency: string; amount: bigint }>;
  lastPrices: Array<{ market: string; price: bigint }>;
  /** All open orders, including untriggered stops; FIFO order comes from `seq`. */
  orders: OrderView[];
  withdrawals: Array<{ withdrawalId: string; user: number; currency: string; amount: bigint }>;
}

/** Config plus state. */
export interface EngineSnapshot {
  config: EngineConfig;
  state: EngineState;
}
