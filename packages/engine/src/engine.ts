/** The exchange state machine: construct from config (and optionally persisted state), apply commands. */
import { depth as sideDepth } from './book.ts';
import { Rejection, type RejectionCode } from './codes.ts';
import { validateConfig } from './config.ts';
import type { CommandResult, PostingCause, SwapOutcome } from './events.ts';
import { cause, flushBalances } from './ledger.ts';
import { addMarket, setFeeRule, setMarketState, updateMarket } from './markets.ts';
import type { Order } from './order.ts';
import { cancelAll, cancelOrder, placeOrder } from './orders.ts';
import { exportSnapshot, importState } from './snapshot.ts';
import { CoreState, type Tx } from './state.ts';
import { swap } from './swap.ts';
import type { Command, EngineConfig, EngineSnapshot, EngineState, OrderView } from './types.ts';
import {
  cardFee,
  cardRefund,
  cardTopUp,
  credit,
  debit,
  holdWithdrawal,
  internalTransfer,
  liquidity,
  releaseWithdrawal,
  setTradingLevel,
  settleWithdrawal,
} from './wallet.ts';

/** The cause of a command's own postings (see {@link PostingCause}); trades, orders and fees set their own. */
function commandCause(c: Command): PostingCause {
  switch (c.type) {
    case 'Credit':
      return c.kind === 'deposit' ? 'deposit' : 'adjustment';
    case 'Debit':
      return c.kind === 'withdrawal' ? 'withdrawal' : 'adjustment';
    case 'HoldWithdrawal':
    case 'SettleWithdrawal':
    case 'ReleaseWithdrawal':
      return 'withdrawal';
    case 'InternalTransfer':
      return 'transfer';
    case 'Swap':
      return 'swap';
    case 'CardTopUp':
      return 'card_topup';
    case 'CardFee':
      return 'card_fee';
    case 'CardRefund':
      return 'card_refund';
    case 'FundLiquidity':
    case 'DrainLiquidity':
      return 'liquidity';
    default:
      return 'order';
  }
}

/** Most closed order objects kept for reuse. */
const POOL_MAX = 8192;

/** Hand the orders closed by this command (their views are built) back to the pool. */
function recycle(st: CoreState, tx: Tx): void {
  const pool = st.pool;
  const freed = tx.freed;
  for (let i = 0; i < tx.nFreed && pool.length < POOL_MAX; i++) pool.push(freed[i] as Order);
  tx.nFreed = 0;
}

/**
 * A pure, deterministic exchange core over all balances and order books.
 *
 * ```ts
 * const engine = new Engine(config);            // or Engine.restore(snapshot)
 * const r = engine.apply({ type: 'Credit', user: 1, currency: 'usdt', amount: 10n ** 9n, kind: 'deposit', at });
 * if (!r.ok) console.log(r.code);
 * const saved = engine.snapshot();              // config + state; Engine.restore(saved) continues identically
 * ```
 */
export class Engine {
  /** @internal The mutable state; not part of the public API (used by checkConservation and snapshots). */
  readonly core: CoreState;

  /** Build an engine from config and, optionally, persisted state (see {@link EngineState}). Throws on bad input. */
  constructor(config: EngineConfig, state?: EngineState) {
    const fees = validateConfig(config);
    this.core = new CoreState(
      config.currencies,
      config.markets,
      fees,
      config.fees?.rules ?? [],
      config.cardCurrency ?? 'usdt',
    );
    for (const [user, level] of config.tradingLevels ?? []) this.core.account(user).level = level;
    if (state !== undefined) importState(this.core, state);
  }

  /** Rebuild an engine from {@link Engine.snapshot} output. */
  static restore(s: EngineSnapshot): Engine {
    return new Engine(s.config, s.state);
  }

  /** Current config (with market states, fee rules and trading levels as changed by commands) and state. */
  snapshot(): EngineSnapshot {
    return exportSnapshot(this.core);
  }

  /** Apply one command. A rejected command changes nothing; its result carries the code. */
  apply(c: Command): CommandResult {
    const st = this.core;
    const tx = st.tx.reset(c.at, ++st.stamp);
    cause(tx, commandCause(c), 0);
    let res: RejectionCode | null = null;
    let orderId: number | null = null;
    let swapOut: SwapOutcome | null = null;
    if (typeof c.at !== 'number' || !Number.isFinite(c.at)) {
      res = Rejection.InvalidCommand;
    } else {
      switch (c.type) {
        case 'PlaceOrder': {
          const r = placeOrder(st, tx, c);
          if (typeof r === 'number') orderId = r;
          else res = r;
          break;
        }
        case 'CancelOrder':
          res = cancelOrder(st, tx, c);
          break;
        case 'CancelAll':
          res = cancelAll(st, tx, c);
          break;
        case 'Credit':
          res = credit(st, tx, c);
          break;
        case 'Debit':
          res = debit(st, tx, c);
          break;
        case 'HoldWithdrawal':
          res = holdWithdrawal(st, tx, c);
          break;
        case 'SettleWithdrawal':
          res = settleWithdrawal(st, tx, c);
          break;
        case 'ReleaseWithdrawal':
          res = releaseWithdrawal(st, tx, c);
          break;
        case 'InternalTransfer':
          res = internalTransfer(st, tx, c);
          break;
        case 'Swap': {
          const r = swap(st, tx, c);
          if (typeof r === 'string') res = r;
          else {
            swapOut = r;
            orderId = r.orderId;
          }
          break;
        }
        case 'CardTopUp':
          res = cardTopUp(st, tx, c);
          break;
        case 'CardFee':
          res = cardFee(st, tx, c);
          break;
        case 'CardRefund':
          res = cardRefund(st, tx, c);
          break;
        case 'FundLiquidity':
        case 'DrainLiquidity':
          res = liquidity(st, tx, c);
          break;
        case 'SetTradingLevel':
          res = setTradingLevel(st, c);
          break;
        case 'SetFeeRule':
          res = setFeeRule(st, tx, c);
          break;
        case 'SetMarketState':
          res = setMarketState(st, tx, c);
          break;
        case 'AddMarket':
          res = addMarket(st, tx, c);
          break;
        case 'UpdateMarket':
          res = updateMarket(st, tx, c);
          break;
        default:
          res = Rejection.InvalidCommand;
      }
    }
    if (res !== null) {
      return {
        ok: false,
        code: res,
        ref: c.ref,
        events:
          c.type === 'PlaceOrder'
            ? [{ type: 'OrderRejected', code: res, user: c.user, market: c.market, at: c.at }]
            : [],
        postings: [],
        orders: [],
        orderId: null,
        swap: null,
      };
    }
    flushBalances(st, tx);
    const n = tx.nOrders;
    const touched = tx.orders;
    const orders: OrderView[] = new Array(n);
    for (let i = 0; i < n; i++) orders[i] = (touched[i] as Order).view();
    if (tx.nFreed !== 0) recycle(st, tx);
    return {
      ok: true,
      code: null,
      ref: c.ref,
      events: tx.events.slice(0, tx.nEvents),
      postings: tx.postings.slice(0, tx.nPostings),
      orders,
      orderId,
      swap: swapOut,
    };
  }

  /** A user's balance and locked amount in a currency (zeros if unknown). */
  balance(user: number, currency: string): { balance: bigint; locked: bigint } {
    const ci = this.core.curIdx.get(currency);
    const a = this.core.users.get(user);
    if (ci === undefined || a === undefined) return { balance: 0n, locked: 0n };
    return { balance: a.main[ci] as bigint, locked: a.locked[ci] as bigint };
  }

  /** All non-zero balances of a user, in config currency order. */
  balances(user: number): Array<{ currency: string; balance: bigint; locked: bigint }> {
    const a = this.core.users.get(user);
    if (a === undefined) return [];
    const out: Array<{ currency: string; balance: bigint; locked: bigint }> = [];
    this.core.curIds.forEach((currency, ci) => {
      const balance = a.main[ci] as bigint;
      const locked = a.locked[ci] as bigint;
      if (balance !== 0n || locked !== 0n) out.push({ currency, balance, locked });
    });
    return out;
  }

  /** A system account's balance (`fees`, `external`, `card`, `swap`). */
  systemBalance(account: 'fees' | 'external' | 'card' | 'swap', currency: string): bigint {
    const ci = this.core.curIdx.get(currency);
    return ci === undefined ? 0n : (this.core.sys[account][ci] as bigint);
  }

  /** An open order (including untriggered stops), or undefined once closed. */
  order(id: number): OrderView | undefined {
    return this.core.orders.get(id)?.view();
  }

  /** A user's open orders in id order. */
  openOrders(user: number): OrderView[] {
    const out: OrderView[] = [];
    for (let o = this.core.users.get(user)?.ordersHead ?? null; o !== null; o = o.unext) out.push(o.view());
    return out;
  }

  /** Aggregated depth, best first: [price, volume] per level. */
  depth(market: string, limit = 50): { bids: Array<[bigint, bigint]>; asks: Array<[bigint, bigint]> } {
    const m = this.core.markets.get(market);
    if (m === undefined) return { bids: [], asks: [] };
    return { bids: sideDepth(m.book.bids, limit), asks: sideDepth(m.book.asks, limit) };
  }

  /** Resting order ids of one side in priority order (best level first, FIFO within a level). */
  bookOrderIds(market: string, side: 'buy' | 'sell'): number[] {
    const m = this.core.markets.get(market);
    if (m === undefined) return [];
    const out: number[] = [];
    const lv = (side === 'buy' ? m.book.bids : m.book.asks).levels;
    for (let i = lv.length - 1; i >= 0; i--) {
      for (let n = lv[i]?.head ?? null; n !== null; n = n.next) out.push((n as unknown as { id: number }).id);
    }
    return out;
  }

  /** Last trade price of a market, or null before its first trade. */
  lastPrice(market: string): bigint | null {
    return this.core.markets.get(market)?.lastPrice ?? null;
  }

  /** Work counter of a market's book (nodes/levels touched): a cost measure for tests. */
  bookWork(market: string): number {
    return this.core.markets.get(market)?.book.work ?? 0;
  }
}
