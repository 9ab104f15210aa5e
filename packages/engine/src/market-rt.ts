/** A market at run time: its configuration, unit multipliers, book, stop sets and fee table. */
import { BookSide, OrderBook } from './book.ts';
import type { CurrencyConfig, FeeRates, FeeRule, MarketConfig, MarketState } from './types.ts';

/** 10^n as a bigint. */
export function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** Runtime market: config, unit multipliers, book, stop sets, last price, fee table. */
export class MarketRt {
  readonly id: string;
  readonly base: string;
  readonly quote: string;
  readonly baseIdx: number;
  readonly quoteIdx: number;
  readonly cfg: MarketConfig;
  /** Base units per volume step. */
  readonly bm: bigint;
  /** Quote units per (price tick × volume step). */
  readonly qm: bigint;
  /** Fee cache for base amounts: for rate `bfRate`, fee(v · bm) = v · bfUnit exactly, or bfUnit < 0. */
  bfRate = -1n;
  bfUnit = -1n;
  state: MarketState;
  readonly book = new OrderBook();
  /** Stops triggered when last <= stop (sell stop-loss, buy take-profit); best = highest stop. */
  readonly stopsDown = new BookSide(true);
  /** Stops triggered when last >= stop (buy stop-loss, sell take-profit); best = lowest stop. */
  readonly stopsUp = new BookSide(false);
  lastPrice: bigint | null = null;
  feeDefault: FeeRates = { maker: 1000n, taker: 1000n };
  feeLevels = new Map<number, FeeRates>();

  constructor(
    cfg: MarketConfig,
    baseCur: CurrencyConfig,
    quoteCur: CurrencyConfig,
    baseIdx: number,
    quoteIdx: number,
  ) {
    this.cfg = { ...cfg };
    this.id = cfg.id;
    this.base = cfg.base;
    this.quote = cfg.quote;
    this.baseIdx = baseIdx;
    this.quoteIdx = quoteIdx;
    this.state = cfg.state;
    this.bm = pow10(baseCur.precision - cfg.amountPrecision);
    this.qm = pow10(quoteCur.precision - cfg.pricePrecision - cfg.amountPrecision);
  }

  /** Resolve fee rates for a trading level. */
  fees(level: number): FeeRates {
    return this.feeLevels.size === 0 ? this.feeDefault : (this.feeLevels.get(level) ?? this.feeDefault);
  }

  /** Rebuild the fee table of this market from defaults and rules (most specific rule wins). */
  rebuildFees(defaults: FeeRates, rules: FeeRule[]): void {
    let def = defaults;
    const levels = new Map<number, FeeRates>();
    for (const r of rules) if (r.market === undefined && r.level === undefined) def = r;
    for (const r of rules) if (r.market === this.id && r.level === undefined) def = r;
    for (const r of rules) if (r.market === undefined && r.level !== undefined) levels.set(r.level, r);
    for (const r of rules) if (r.market === this.id && r.level !== undefined) levels.set(r.level, r);
    this.feeDefault = { maker: def.maker, taker: def.taker };
    this.feeLevels = new Map([...levels].map(([l, r]) => [l, { maker: r.maker, taker: r.taker }]));
  }
}
