/** The internal order: also a node of a book level or stop set. Closed orders are recycled (see `reuse`). */
import type { BookNode, Level } from './book.ts';
import type { MarketRt } from './market-rt.ts';
import type { OrderState, OrderView, OrdType, Side, TimeInForce } from './types.ts';

/** Internal order; also a node of a book level or stop set. */
export class Order implements BookNode {
  prev: BookNode | null = null;
  next: BookNode | null = null;
  level: Level | null = null;
  uprev: Order | null = null;
  unext: Order | null = null;
  remainingVolume!: bigint;
  executedVolume = 0n;
  /** Quote units exchanged so far (spent by buys, received by sells, before fees). */
  quoteTotal = 0n;
  tradesCount = 0;
  state: OrderState = 'wait';
  updatedAt!: number;
  triggeredAt: number | null = null;
  /** `ioc` for market orders, else `gtc` unless the PlaceOrder said otherwise (see `placeOrder`). */
  timeInForce: TimeInForce = 'gtc';
  postOnly = false;
  /** Last command stamp that put this order into a result's `orders`. */
  stamp = -1;
  id!: number;
  acct!: UserAccount;
  mkt!: MarketRt;
  side!: Side;
  ordType!: OrdType;
  price!: bigint | null;
  stopPrice!: bigint | null;
  originVolume!: bigint;
  locked!: bigint;
  createdAt!: number;
  makerFee!: bigint;
  takerFee!: bigint;
  seq!: number;

  /** A new order; the same initialisation as {@link Order.reuse}, which recycles a closed one. */
  constructor(...fields: Parameters<Order['reuse']>) {
    this.reuse(...fields);
  }

  /** Re-initialise a closed order object as a brand-new order (same fields as the constructor). */
  reuse(
    id: number,
    acct: UserAccount,
    mkt: MarketRt,
    side: Side,
    ordType: OrdType,
    price: bigint | null,
    stopPrice: bigint | null,
    originVolume: bigint,
    locked: bigint,
    createdAt: number,
    makerFee: bigint,
    takerFee: bigint,
    seq: number,
  ): this {
    this.prev = null;
    this.next = null;
    this.level = null;
    this.uprev = null;
    this.unext = null;
    this.remainingVolume = originVolume;
    this.executedVolume = 0n;
    this.quoteTotal = 0n;
    this.tradesCount = 0;
    this.state = 'wait';
    this.updatedAt = createdAt;
    this.triggeredAt = null;
    this.timeInForce = ordType === 'market' ? 'ioc' : 'gtc';
    this.postOnly = false;
    this.stamp = -1;
    this.id = id;
    this.acct = acct;
    this.mkt = mkt;
    this.side = side;
    this.ordType = ordType;
    this.price = price;
    this.stopPrice = stopPrice;
    this.originVolume = originVolume;
    this.locked = locked;
    this.createdAt = createdAt;
    this.makerFee = makerFee;
    this.takerFee = takerFee;
    this.seq = seq;
    return this;
  }

  get user(): number {
    return this.acct.id;
  }

  /** Gross units received: base (executed volume) for buys, quote for sells. */
  get fundsReceived(): bigint {
    if (this.side !== 'buy') return this.quoteTotal;
    return this.executedVolume === 0n ? 0n : this.executedVolume * this.mkt.bm;
  }

  /** Units given: quote for buys, base (executed volume) for sells. */
  get fundsSpent(): bigint {
    if (this.side === 'buy') return this.quoteTotal;
    return this.executedVolume === 0n ? 0n : this.executedVolume * this.mkt.bm;
  }

  /** True for stop types that have not been triggered yet. */
  get untriggeredStop(): boolean {
    return this.stopPrice !== null && this.triggeredAt === null;
  }

  view(): OrderView {
    const buy = this.side === 'buy';
    const base = this.executedVolume === 0n ? 0n : this.executedVolume * this.mkt.bm;
    return {
      id: this.id,
      user: this.acct.id,
      market: this.mkt.id,
      side: this.side,
      ordType: this.ordType,
      price: this.price,
      stopPrice: this.stopPrice,
      originVolume: this.originVolume,
      remainingVolume: this.remainingVolume,
      executedVolume: this.executedVolume,
      locked: this.locked,
      fundsReceived: buy ? base : this.quoteTotal,
      fundsSpent: buy ? this.quoteTotal : base,
      tradesCount: this.tradesCount,
      state: this.state,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      makerFee: this.makerFee,
      takerFee: this.takerFee,
      triggeredAt: this.triggeredAt,
      timeInForce: this.timeInForce,
      postOnly: this.postOnly,
      seq: this.seq,
    };
  }
}

/** One user's balances, indexed by currency index. */
export class UserAccount {
  readonly main: bigint[];
  readonly locked: bigint[];
  /** Command stamp of the last BalanceChanged bookkeeping, per currency. */
  readonly stamp: number[];
  readonly mainKey: string;
  readonly lockedKey: string;
  level = 0;
  /** Open orders of this user in id order (doubly linked through Order.uprev/unext). */
  ordersHead: Order | null = null;
  ordersTail: Order | null = null;

  constructor(
    readonly id: number,
    nCurrencies: number,
  ) {
    // packed (not holey) arrays
    this.main = Array.from({ length: nCurrencies }, () => 0n);
    this.locked = Array.from({ length: nCurrencies }, () => 0n);
    this.stamp = Array.from({ length: nCurrencies }, () => -1);
    this.mainKey = `u:${id}:main`;
    this.lockedKey = `u:${id}:locked`;
  }

  linkOrder(o: Order): void {
    o.unext = null;
    o.uprev = this.ordersTail;
    if (this.ordersTail === null) this.ordersHead = o;
    else this.ordersTail.unext = o;
    this.ordersTail = o;
  }

  unlinkOrder(o: Order): void {
    if (o.uprev === null) this.ordersHead = o.unext;
    else o.uprev.unext = o.unext;
    if (o.unext === null) this.ordersTail = o.uprev;
    else o.unext.uprev = o.uprev;
    o.uprev = null;
    o.unext = null;
  }
}
