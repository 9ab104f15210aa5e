import type { CommandResult, OrderView, Trade } from '@exchange/engine';
import { formatUnits, toUnits } from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../core/index.ts';
import type { CommittedBatch } from '../../core/sequencer.ts';
import type { StreamHub } from '../ranger/hub.ts';
import { privateStreamKey } from '../ranger/streams.ts';
import { orderEvent } from '../trading/presenters.ts';
import { usdtPrice } from '../wallet/valuation.ts';
import { BookView, type LevelChange } from './book-view.ts';
import { type Candle, KLINE_PERIODS, queryKlines, type WireCandle, wireCandle } from './klines.ts';
import { openOrders } from './repository.ts';
import { computeTickers, flatTickers, type Ticker, type TradeFigures } from './tickers.ts';

/** The candle being built, in integer ticks (price) and steps (volume). */
interface LiveCandle {
  bucket: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
}

/** Stream name of a user's private channel (`order`, `trade`, `balances`, `deposit_address`). */
/**
 * Publishes on a user's private stream under its plain name. The payload is built only when someone listens:
 * most users touched by a batch have no stream open.
 */
function publishPrivate(hub: StreamHub, userId: number, name: string, payload: () => unknown): void {
  const stream = privateStreamKey(userId, name);
  if (hub.subscriberCount(stream) > 0) hub.publish(stream, payload(), name);
}

/** `last` (in `quote`) in US dollars, USDT counted as 1 USD; 8 decimals, rounded down, exact. */
function lastInUsd(core: Core, quote: string, last: string): string {
  return formatUnits((toUnits(last, 8) * usdtPrice(core, quote)) / 100_000_000n, 8);
}

/**
 * Market data from committed batches only: per-market committed order books (`ob-snap`/`ob-inc` with a gap-free
 * sequence, `update`), public trades, live candles for every period, throttled `global.tickers`, and each user's
 * private `order`, `trade` and `balances` streams.
 */
export class MarketData {
  readonly books = new Map<string, BookView>();
  private readonly candles = new Map<string, LiveCandle>();
  private tickerCache: { at: number; value: Record<string, TradeFigures> } | undefined;
  private tickerTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly db: pg.Pool,
    private readonly core: Core,
    private readonly hub: StreamHub,
  ) {}

  /** Builds the books from committed open orders and starts following committed batches. */
  static async start(db: pg.Pool, core: Core, hub: StreamHub): Promise<MarketData> {
    const data = new MarketData(db, core, hub);
    for (const [id, book] of await data.loadBooks()) data.books.set(id, book);
    core.sequencer.onCommitted((batch) => data.onBatch(batch));
    // A batch that committed while its answer was lost with the database was never published: these books
    // would miss it for good, so they are read again and subscribers get a fresh snapshot.
    core.sequencer.onRecovered(({ missed }) => (missed ? data.resync() : undefined));
    hub.onSubscribe((stream) => data.snapshotFor(stream));
    return data;
  }

  /** Every market's committed book, from the open orders in the database. */
  private async loadBooks(): Promise<Map<string, BookView>> {
    const books = new Map<string, BookView>();
    for (const id of this.core.markets.keys()) books.set(id, new BookView());
    const ignored = new Map<string, LevelChange>();
    for (const order of await openOrders(this.db, this.core.units, books))
      books.get(order.market)?.apply(order, ignored);
    return books;
  }

  /**
   * Replaces the books with the database's and sends each book's subscribers a snapshot as on subscribe; the
   * sequence moves on by one, so a client that only follows `ob-inc` sees a gap and asks again. The core is
   * paused meanwhile, so no batch lands between the read and the swap.
   */
  private async resync(): Promise<void> {
    const fresh = await this.loadBooks();
    for (const [id, book] of fresh) {
      book.sequence = (this.books.get(id)?.sequence ?? 0) + 1;
      this.books.set(id, book);
      for (const kind of ['ob-snap', 'ob-inc', 'update']) {
        const snapshot = this.snapshotFor(`${id}.${kind}`);
        if (snapshot) this.hub.publish(`${id}.${kind}`, snapshot.payload, snapshot.stream);
      }
    }
  }

  /** Depth in decimal strings: asks ascending, bids descending. */
  depth(market: string, limit: number) {
    const book = this.books.get(market);
    const info = this.core.markets.get(market);
    if (!book || !info) return undefined;
    const { asks, bids } = book.depth(limit);
    const fmt = ([p, v]: [bigint, bigint]) => [
      formatUnits(p, info.pricePrecision),
      formatUnits(v, info.amountPrecision),
    ];
    return {
      timestamp: Math.floor(Date.now() / 1000),
      asks: asks.map(fmt),
      bids: bids.map(fmt),
      sequence: book.sequence,
    };
  }

  /**
   * Tickers: the trade figures are recomputed at most once a second; the best ask (`sell`) and bid (`buy`) of
   * the committed book and the USD value of `last` are read on each call.
   */
  async tickers(): Promise<Record<string, Ticker>> {
    if (!this.tickerCache || Date.now() - this.tickerCache.at >= 1000) {
      // The trades table follows the core's journal: figures include every trade answered before this call.
      await this.core.sequencer.settled();
      const value = await computeTickers(this.db, [...this.core.markets.keys()]);
      this.tickerCache = { at: Date.now(), value };
    }
    const out: Record<string, Ticker> = {};
    for (const [id, { at, ticker }] of Object.entries(this.tickerCache.value)) {
      const info = this.core.markets.get(id);
      if (!info) continue;
      const best = this.depth(id, 1);
      out[id] = {
        at,
        ticker: {
          ...ticker,
          sell: best?.asks[0]?.[0] ?? '0',
          buy: best?.bids[0]?.[0] ?? '0',
          total_volume: ticker.amount,
          total_volume_base_currency: ticker.volume,
          usd: lastInUsd(this.core, info.quote, ticker.last),
          // No INR rate is configured anywhere in the exchange: null rather than a made-up number.
          inr: null,
          base_unit: info.base,
          quote_unit: info.quote,
        },
      };
    }
    return out;
  }

  /** What a client gets right after subscribing: the full book for `ob-snap`/`ob-inc`/`update`. */
  private snapshotFor(stream: string): { stream: string; payload: unknown } | undefined {
    const [market, kind] = stream.split('.');
    if (!market || !(kind === 'ob-snap' || kind === 'ob-inc' || kind === 'update')) return undefined;
    const depth = this.depth(market, 300);
    if (!depth) return undefined;
    return {
      stream: `${market}.${kind === 'update' ? 'update' : 'ob-snap'}`,
      payload: { asks: depth.asks, bids: depth.bids, sequence: depth.sequence },
    };
  }

  private onBatch(batch: CommittedBatch): void {
    this.hub.batch(() => this.publishBatch(batch));
  }

  private publishBatch(batch: CommittedBatch): void {
    const changes = new Map<string, Map<string, LevelChange>>();
    const trades: Trade[] = [];
    const orders = new Map<number, OrderView>();
    for (const result of batch.results) this.collect(result, changes, trades, orders);
    for (const [market, levels] of changes) this.publishLevels(market, levels);
    if (trades.length > 0) this.publishTrades(trades);
    for (const o of orders.values())
      publishPrivate(this.hub, o.user, 'order', () => orderEvent(this.core.units, o));
  }

  private collect(
    result: CommandResult,
    changes: Map<string, Map<string, LevelChange>>,
    trades: Trade[],
    orders: Map<number, OrderView>,
  ) {
    for (const o of result.orders) {
      orders.set(o.id, o);
      const levels = changes.get(o.market) ?? new Map<string, LevelChange>();
      changes.set(o.market, levels);
      this.books.get(o.market)?.apply(o, levels);
    }
    for (const e of result.events) {
      if (e.type === 'Trade') trades.push(e);
      // A market added by staff: its book starts empty, before any order of it in this batch is applied.
      else if (e.type === 'MarketAdded' && !this.books.has(e.market.id))
        this.books.set(e.market.id, new BookView());
      else if (e.type === 'BalanceChanged') {
        const p = this.core.units.precision(e.currency);
        publishPrivate(this.hub, e.user, 'balances', () => ({
          [e.currency]: [formatUnits(e.balance, p), formatUnits(e.locked, p)],
        }));
      }
    }
  }

  private publishLevels(market: string, levels: Map<string, LevelChange>): void {
    const book = this.books.get(market);
    const info = this.core.markets.get(market);
    if (!book || !info) return;
    for (const change of levels.values()) {
      book.sequence += 1;
      const level = [
        formatUnits(change.price, info.pricePrecision),
        formatUnits(change.volume, info.amountPrecision),
      ];
      this.hub.publish(`${market}.ob-inc`, {
        [change.side === 'sell' ? 'asks' : 'bids']: level,
        sequence: book.sequence,
      });
    }
    if (this.hub.subscriberCount(`${market}.update`) > 0) {
      const depth = this.depth(market, 300);
      if (depth)
        this.hub.publish(`${market}.update`, {
          asks: depth.asks,
          bids: depth.bids,
          sequence: depth.sequence,
        });
    }
  }

  private publishTrades(trades: Trade[]): void {
    const byMarket = new Map<string, Trade[]>();
    for (const t of trades) byMarket.set(t.market, [...(byMarket.get(t.market) ?? []), t]);
    for (const [market, list] of byMarket) {
      const info = this.core.markets.get(market);
      if (!info) continue;
      const price = (t: Trade) => formatUnits(t.price, info.pricePrecision);
      const amount = (t: Trade) => formatUnits(t.volume, info.amountPrecision);
      this.hub.publish(`${market}.trades`, {
        trades: list.map((t) => ({
          tid: t.id,
          taker_type: t.takerSide,
          type: t.takerSide,
          date: Math.floor(t.at / 1000),
          price: price(t),
          amount: amount(t),
        })),
      });
      for (const t of list) {
        const entity = () => ({
          id: t.id,
          price: price(t),
          amount: amount(t),
          total: formatUnits(t.total, this.core.units.precision(info.quote)),
          market,
          created_at: new Date(t.at).toISOString(),
          taker_type: t.takerSide,
        });
        publishPrivate(this.hub, t.takerUser, 'trade', () => ({
          ...entity(),
          side: t.takerSide,
          order_id: t.takerOrderId,
        }));
        publishPrivate(this.hub, t.makerUser, 'trade', () => ({
          ...entity(),
          side: t.takerSide === 'buy' ? 'sell' : 'buy',
          order_id: t.makerOrderId,
        }));
      }
      for (const [minutes, suffix] of Object.entries(KLINE_PERIODS))
        this.updateCandle(market, Number(minutes), suffix, list);
    }
    this.scheduleTickers();
  }

  private updateCandle(market: string, minutes: number, suffix: string, trades: Trade[]) {
    const key = `${market}:${minutes}`;
    for (const t of trades) {
      const bucket = Math.floor(t.at / 1000 / (minutes * 60)) * minutes * 60;
      const current = this.candles.get(key);
      if (!current || current.bucket !== bucket) {
        this.candles.set(key, {
          bucket,
          open: t.price,
          high: t.price,
          low: t.price,
          close: t.price,
          volume: t.volume,
        });
        // The first candle seen since start may already hold earlier trades: rebuild it from the database.
        // Without the database the candle built from events stands.
        if (!current) this.reloadCandle(market, minutes, key, bucket).catch(() => {});
      } else {
        if (t.price > current.high) current.high = t.price;
        if (t.price < current.low) current.low = t.price;
        current.close = t.price;
        current.volume += t.volume;
      }
    }
    const stream = `${market}.kline-${suffix}`;
    const candle = this.candles.get(key);
    if (candle && this.hub.subscriberCount(stream) > 0)
      this.hub.publish(stream, wireCandle(this.formatCandle(market, candle)) satisfies WireCandle);
  }

  private formatCandle(market: string, c: LiveCandle): Candle {
    const info = this.core.units.market(market);
    const p = (v: bigint) => formatUnits(v, info.pricePrecision);
    return [
      c.bucket,
      p(c.open),
      p(c.high),
      p(c.low),
      p(c.close),
      formatUnits(c.volume, info.amountPrecision),
    ];
  }

  private async reloadCandle(market: string, minutes: number, key: string, bucket: number) {
    const [candle] = await queryKlines(this.db, market, minutes, bucket, bucket, 1);
    const current = this.candles.get(key);
    if (!candle || !current || current.bucket !== bucket) return;
    const info = this.core.units.market(market);
    const p = (v: string) => toUnits(v, info.pricePrecision);
    this.candles.set(key, {
      bucket,
      open: p(candle[1]),
      high: p(candle[2]),
      low: p(candle[3]),
      close: p(candle[4]),
      volume: toUnits(candle[5], info.amountPrecision),
    });
  }

  private scheduleTickers(): void {
    if (this.tickerTimer) return;
    this.tickerTimer = setTimeout(async () => {
      this.tickerTimer = undefined;
      if (this.hub.subscriberCount('global.tickers') === 0) return;
      this.tickerCache = undefined;
      // Peatio's flat shape per market ({at, last, ...}), not the REST call's {at, ticker: {...}}.
      this.hub.publish('global.tickers', flatTickers(await this.tickers().catch(() => ({}))));
    }, 1000);
    this.tickerTimer.unref();
  }
}
