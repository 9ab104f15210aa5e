/** Events and command results. */
import type { RejectionCode } from './codes.ts';
import type { FeeRule, MarketConfig, OrderView, OrdType, Side } from './types.ts';

/**
 * Why money moved. The postings of one cause within a command sum to zero per currency (a fee is its own pair,
 * never netted into the movement that charged it).
 * - `order`: a hold at placement, or its release when the order is cancelled or done (`causeId`: the order id);
 * - `trade`: the exchange of a fill (`causeId`: the trade id); `fee`: a fee, of a trade (`causeId`: the trade id)
 *   or of the command itself (`causeId` 0: a withdrawal, card top-up or swap fee);
 * - the wallet and card commands' own causes (`causeId` 0: the command's client id names the deposit,
 *   withdrawal, swap, top-up or adjustment).
 */
export type PostingCause =
  | 'order'
  | 'trade'
  | 'fee'
  | 'deposit'
  | 'withdrawal'
  | 'adjustment'
  | 'transfer'
  | 'swap'
  | 'card_topup'
  | 'card_fee'
  | 'card_refund'
  | 'liquidity';

/** One ledger line; a command's postings sum to zero per currency, and so do those of each of its causes. */
export interface Posting {
  /** `u:<id>:main`, `u:<id>:locked`, `fees`, `external`, `card` or `swap`. */
  account: string;
  currency: string;
  /** Signed change of the account. */
  amount: bigint;
  cause: PostingCause;
  /** The order or trade id of an `order`, `trade` or `fee` cause; 0 when the cause is the command itself. */
  causeId: number;
}

/**
 * Why an order was cancelled:
 * - `user`: a CancelOrder or CancelAll;
 * - `self_trade`: the taker met a resting order of its own user (its remainder is cancelled);
 * - `unfilled`: a market or `ioc` order's remainder that the book could not fill at once;
 * - `budget`: a market buy's hold cannot pay for one more step;
 * - `fill_or_kill`: a `fok` order the book could not fill wholly at once (cancelled before any trade);
 * - `post_only`: a post-only order that would have taken liquidity (cancelled before any trade).
 */
export type CancelReason = 'user' | 'self_trade' | 'unfilled' | 'budget' | 'fill_or_kill' | 'post_only';

/** An order was accepted (its full, final state for this command is in {@link CommandResult.orders}). */
export interface OrderOpened {
  type: 'OrderOpened';
  orderId: number;
  user: number;
  market: string;
  side: Side;
  ordType: OrdType;
  price: bigint | null;
  stopPrice: bigint | null;
  volume: bigint;
  /** Amount held at placement (quote units for buys, base units for sells). */
  locked: bigint;
  at: number;
}
export interface OrderTriggered {
  type: 'OrderTriggered';
  orderId: number;
  user: number;
  market: string;
  stopPrice: bigint;
  lastPrice: bigint;
  at: number;
}
export interface Trade {
  type: 'Trade';
  id: number;
  market: string;
  price: bigint;
  volume: bigint;
  /** Quote units exchanged (price · volume converted). */
  total: bigint;
  makerOrderId: number;
  takerOrderId: number;
  makerUser: number;
  takerUser: number;
  takerSide: Side;
  /** Fee charged to the maker, in the currency the maker receives. */
  makerFee: bigint;
  /** Fee charged to the taker, in the currency the taker receives. */
  takerFee: bigint;
  at: number;
}
export interface OrderDone {
  type: 'OrderDone';
  orderId: number;
  user: number;
  market: string;
  at: number;
}
export interface OrderCancelled {
  type: 'OrderCancelled';
  orderId: number;
  user: number;
  market: string;
  reason: CancelReason;
  at: number;
}
export interface OrderRejected {
  type: 'OrderRejected';
  code: RejectionCode;
  user: number;
  market: string;
  at: number;
}
/** New absolute balance of one user in one currency; emitted once per touched pair, at command end. */
export interface BalanceChanged {
  type: 'BalanceChanged';
  user: number;
  currency: string;
  balance: bigint;
  locked: bigint;
}

/** A market was added (`AddMarket`): its full config, for the reference tables and the edges. */
export interface MarketAdded {
  type: 'MarketAdded';
  market: MarketConfig;
  at: number;
}
/** A market's bounds or state changed (`UpdateMarket`, `SetMarketState`): its full config afterwards. */
export interface MarketUpdated {
  type: 'MarketUpdated';
  market: MarketConfig;
  at: number;
}
/** A fee rule was added or replaced (`SetFeeRule`, `AddMarket` with fees); orders placed afterwards use it. */
export interface FeeRuleSet {
  type: 'FeeRuleSet';
  rule: FeeRule;
  at: number;
}

/** Every event the engine emits. */
export type EngineEvent =
  | OrderOpened
  | OrderTriggered
  | Trade
  | OrderDone
  | OrderCancelled
  | OrderRejected
  | BalanceChanged
  | MarketAdded
  | MarketUpdated
  | FeeRuleSet;

/** Outcome of an accepted Swap. */
export interface SwapOutcome {
  from: string;
  to: string;
  /** Units of `from` taken from the user. */
  given: bigint;
  /** Units of `to` credited to the user (after fee). */
  received: bigint;
  /** Units of `to` that went to `fees`. */
  fee: bigint;
  /** The market order id, in `book` mode. */
  orderId: number | null;
}

/** What one command produced. */
export interface CommandResult {
  ok: boolean;
  /** Null when accepted. */
  code: RejectionCode | null;
  ref: string | undefined;
  events: EngineEvent[];
  postings: Posting[];
  /** Final state of every order this command touched, in first-touch order (rows to upsert). */
  orders: OrderView[];
  /** The new order's id (PlaceOrder). */
  orderId: number | null;
  swap: SwapOutcome | null;
}
