import { formatUnits, toUnits } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { DEMO_BOOKS, SEED_MARKETS } from '../../src/db/seed-data.ts';
import type { SignedApiClient } from '../../src/demo/api-client.ts';
import { type BotMarket, LiquidityBot } from '../../src/demo/bot.ts';
import { pastTrades } from '../../src/demo/history.ts';

/**
 * The demo bot keeps its market within the volatility of the 90-day history it continues (issue 32 item 12):
 * 5-minute candles of a day of bot trading move and spread about as much as the history's dense last days,
 * not 5-10 % each.
 */
const INTERVAL_MS = 3000;
const FIVE_MINUTES = 300_000;
const END = Date.UTC(2026, 10, 23, 12, 0, 0);

interface Order {
  id: number;
  side: 'buy' | 'sell';
  price: bigint;
  remaining: bigint;
}

/**
 * A one-market exchange in memory, speaking the few calls the bot makes: the maker's limit orders rest, the
 * taker's market orders fill against them best price first; every fill is a trade at the clock's time.
 */
class FakeExchange {
  orders: Order[] = [];
  trades: { at: number; price: bigint }[] = [];
  now = 0;
  private nextId = 1;

  constructor(
    private readonly market: BotMarket,
    private last: bigint,
  ) {}

  client(): SignedApiClient {
    const m = this.market;
    const call = async (method: string, path: string, body?: Record<string, string>): Promise<unknown> => {
      if (method === 'GET' && path.startsWith(`/public/markets/${m.id}/tickers`))
        return { ticker: { last: formatUnits(this.last, m.pricePrecision) } };
      if (method === 'GET' && path.startsWith('/market/orders'))
        return this.orders.map((o) => ({
          id: o.id,
          side: o.side,
          price: formatUnits(o.price, m.pricePrecision),
          remaining_volume: formatUnits(o.remaining, m.amountPrecision),
        }));
      const cancel = /^\/market\/orders\/(\d+)\/cancel$/.exec(path);
      if (method === 'POST' && cancel) {
        this.orders = this.orders.filter((o) => o.id !== Number(cancel[1]));
        return {};
      }
      if (method === 'POST' && path === '/market/orders' && body) {
        const volume = toUnits(body.volume as string, m.amountPrecision);
        const side = body.side as 'buy' | 'sell';
        if (body.ord_type === 'limit') {
          const price = toUnits(body.price as string, m.pricePrecision);
          this.orders.push({ id: this.nextId++, side, price, remaining: volume });
          return {};
        }
        this.fill(side, volume);
        return {};
      }
      throw new Error(`unexpected call ${method} ${path}`);
    };
    return { call } as unknown as SignedApiClient;
  }

  private fill(side: 'buy' | 'sell', volume: bigint): void {
    let left = volume;
    const book = this.orders
      .filter((o) => o.side !== side)
      .sort((a, b) => (side === 'buy' ? Number(a.price - b.price) : Number(b.price - a.price)));
    for (const o of book) {
      if (left === 0n) break;
      let take = left;
      if (o.remaining < take) take = o.remaining;
      o.remaining -= take;
      left -= take;
      this.last = o.price;
      this.trades.push({ at: this.now, price: o.price });
    }
    this.orders = this.orders.filter((o) => o.remaining > 0n);
  }
}

/** 5-minute candles of trades: RMS of the close-to-close change and the mean high-low range, in basis points. */
function candleStats(trades: { at: number; price: bigint }[]) {
  const candles = new Map<number, { high: bigint; low: bigint; close: bigint }>();
  for (const t of trades) {
    const bucket = Math.floor(t.at / FIVE_MINUTES);
    const c = candles.get(bucket);
    if (!c) candles.set(bucket, { high: t.price, low: t.price, close: t.price });
    else {
      if (t.price > c.high) c.high = t.price;
      if (t.price < c.low) c.low = t.price;
      c.close = t.price;
    }
  }
  const list = [...candles.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
  let squares = 0;
  let ranges = 0;
  let worst = 0;
  for (let i = 1; i < list.length; i++) {
    const prev = list[i - 1] as { close: bigint };
    const c = list[i] as { high: bigint; low: bigint; close: bigint };
    const change = Number(((c.close - prev.close) * 1_000_000n) / prev.close) / 100;
    squares += change * change;
    const range = Number(((c.high - c.low) * 1_000_000n) / c.low) / 100;
    ranges += range;
    worst = Math.max(worst, range);
  }
  const n = list.length - 1;
  return { rms: Math.sqrt(squares / n), range: ranges / n, worst, candles: list.length };
}

/** The bot over one market for `hours` of simulated time, with its trades. */
async function simulate(id: string, hours: number) {
  const seed = SEED_MARKETS.find((m) => m.id === id);
  const book = DEMO_BOOKS.find((b) => b.market === id);
  if (!seed || !book) throw new Error(id);
  const market: BotMarket = {
    id,
    pricePrecision: seed.pp,
    amountPrecision: seed.ap,
    reference: toUnits(book.mid, seed.pp),
    step: toUnits(book.step, seed.pp),
    volume: toUnits(book.volume, seed.ap),
    minVolume: toUnits(seed.minAmount, seed.ap),
  };
  const exchange = new FakeExchange(market, market.reference);
  const warnings: string[] = [];
  const bot = new LiquidityBot(exchange.client(), exchange.client(), [market], INTERVAL_MS, {
    warn: (m) => warnings.push(m),
  });
  const ticks = (hours * 3_600_000) / INTERVAL_MS;
  for (let i = 0; i < ticks; i++) {
    exchange.now = i * INTERVAL_MS;
    await bot.tick();
  }
  expect(warnings).toEqual([]);
  return { market, trades: exchange.trades };
}

/** The history's last (dense) day, as the chart shows it before the bot takes over. */
function historyStats(market: BotMarket) {
  const trades = pastTrades(
    {
      id: market.id,
      mid: market.reference,
      minPrice: 1n,
      minVolume: market.minVolume,
      maxVolume: market.volume,
    },
    END,
  ).filter((t) => t.at >= END - 86_400_000);
  return candleStats(trades.map((t) => ({ at: t.at, price: t.price })));
}

describe('the demo bot', () => {
  it.each(DEMO_BOOKS.map((b) => b.market))(
    '%s: moves 5-minute candles about as much as the history, and trades every candle',
    async (id) => {
      const { market, trades } = await simulate(id, 24);
      const bot = candleStats(trades);
      const history = historyStats(market);
      // Every 5-minute candle of the day has trades.
      expect(bot.candles).toBe(24 * 12);
      // Close to close (about 11 basis points in the history): within half as much again, and not a flat line.
      expect(bot.rms).toBeLessThan(1.5 * history.rms);
      expect(bot.rms).toBeGreaterThan(history.rms / 2);
      // High to low inside a candle: the bot trades every 3 s where the history traded every 2 min, so its
      // candles span more trades, but stay of the history's order and never swing more than 0.6 %.
      expect(bot.range).toBeLessThan(3 * history.range);
      expect(bot.worst).toBeLessThan(60);
    },
    60_000,
  );
});
