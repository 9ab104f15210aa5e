/** Internal mutable state of the engine: users, markets, orders, system accounts, per-command context. */
import type { EngineEvent, Posting, PostingCause } from './events.ts';
import { MarketRt } from './market-rt.ts';
import { type Order, UserAccount } from './order.ts';
import { OrderIndex } from './order-index.ts';
import type { CurrencyConfig, FeeRates, FeeRule, MarketConfig } from './types.ts';

/**
 * Per-command context: collects events, postings, touched balances and orders. One instance is reused for
 * every command (no shrinking); the result gets exact-size copies of events and postings.
 */
export class Tx {
  /** Events are events[0 .. nEvents), postings are postings[0 .. nPostings): reused scratch arrays. */
  readonly events: EngineEvent[] = [];
  nEvents = 0;
  readonly postings: Posting[] = [];
  nPostings = 0;
  readonly orders: Order[] = [];
  readonly touchedAcct: UserAccount[] = [];
  readonly touchedCur: number[] = [];
  /** Touched orders are orders[0 .. nOrders) (a reused stack; no shrinking between commands). */
  nOrders = 0;
  /** Touched balances are touchedAcct/touchedCur[0 .. nTouched). */
  nTouched = 0;
  /** Stop orders triggered and waiting to run, in trigger order. */
  readonly triggered: Order[] = [];
  /** Orders closed by this command are freed[0 .. nFreed): recycled once the result is built. */
  readonly freed: Order[] = [];
  nFreed = 0;
  /** Scratch outputs of PlaceOrder validation (avoids a result object per command). */
  vMarket: MarketRt | null = null;
  vAcct: UserAccount | undefined = undefined;
  vLock = 0n;
  /** What the postings written now are for (see {@link PostingCause}); set before money moves. */
  cause: PostingCause = 'order';
  causeId = 0;
  at = 0;
  stamp = 0;

  /** Start a new command. */
  reset(at: number, stamp: number): this {
    this.at = at;
    this.stamp = stamp;
    this.nEvents = 0;
    this.nPostings = 0;
    this.nOrders = 0;
    this.nTouched = 0;
    this.nFreed = 0;
    if (this.triggered.length !== 0) this.triggered.length = 0;
    return this;
  }
}

/** System accounts, indexed by currency index. */
export interface SystemAccounts {
  fees: bigint[];
  external: bigint[];
  card: bigint[];
  swap: bigint[];
}

/** A held withdrawal. */
export interface HeldWithdrawal {
  acct: UserAccount;
  cur: number;
  amount: bigint;
}

/** The whole mutable state. */
export class CoreState {
  readonly currencies: CurrencyConfig[];
  readonly curIdx = new Map<string, number>();
  readonly curIds: string[];
  readonly markets = new Map<string, MarketRt>();
  readonly users = new Map<number, UserAccount>();
  readonly orders = new OrderIndex<Order>();
  readonly withdrawals = new Map<string, HeldWithdrawal>();
  readonly sys: SystemAccounts;
  feeDefaults: FeeRates;
  feeRules: FeeRule[];
  readonly cardCur: number;
  nextOrderId = 1;
  nextTradeId = 1;
  nextSeq = 1;
  stamp = 0;
  readonly tx = new Tx();
  /** Closed order objects ready for reuse (bounded). */
  readonly pool: Order[] = [];
  /** One-entry cache for market lookups (consecutive commands usually hit the same market). */
  private lastMarket: MarketRt | undefined;

  /** The market with this id (cached). */
  market(id: string): MarketRt | undefined {
    const c = this.lastMarket;
    if (c !== undefined && c.id === id) return c;
    const m = this.markets.get(id);
    if (m !== undefined) this.lastMarket = m;
    return m;
  }

  constructor(
    currencies: CurrencyConfig[],
    markets: MarketConfig[],
    feeDefaults: FeeRates,
    feeRules: FeeRule[],
    cardCurrency: string,
  ) {
    this.currencies = currencies.map((c) => ({ ...c }));
    this.curIds = this.currencies.map((c) => c.id);
    this.currencies.forEach((c, i) => {
      this.curIdx.set(c.id, i);
    });
    const n = this.currencies.length;
    const zeros = () => new Array<bigint>(n).fill(0n);
    this.sys = { fees: zeros(), external: zeros(), card: zeros(), swap: zeros() };
    this.feeDefaults = feeDefaults;
    this.feeRules = feeRules.map((r) => ({ ...r }));
    for (const m of markets) this.addMarket(m);
    const ci = this.curIdx.get(cardCurrency);
    this.cardCur = ci ?? -1;
  }

  /** Adds a market with an empty book and its fee table (config already validated). */
  addMarket(m: MarketConfig): MarketRt {
    const bi = this.curIdx.get(m.base);
    const qi = this.curIdx.get(m.quote);
    if (bi === undefined || qi === undefined)
      throw new Error(`engine config: market ${m.id}: unknown currency`);
    const rt = new MarketRt(
      m,
      this.currencies[bi] as CurrencyConfig,
      this.currencies[qi] as CurrencyConfig,
      bi,
      qi,
    );
    rt.rebuildFees(this.feeDefaults, this.feeRules);
    this.markets.set(m.id, rt);
    return rt;
  }

  /** Precision of every currency, by id (for market checks). */
  precisions(): Map<string, number> {
    return new Map(this.currencies.map((c) => [c.id, c.precision]));
  }

  /** The user's account, created empty on first use. */
  account(user: number): UserAccount {
    let a = this.users.get(user);
    if (a === undefined) {
      a = new UserAccount(user, this.currencies.length);
      this.users.set(user, a);
    }
    return a;
  }
}
