import type { Side } from '@exchange/engine';
import { formatUnits, type PlaceOrderInput, toUnits } from '@exchange/shared';
import { ApiCallError, type SignedApiClient } from './api-client.ts';
import { DemoRandom } from './random.ts';
import { FINE, maxMovePpm, quoteLevels, walk } from './walk.ts';

/** A market the bot keeps alive, in its own integer units. */
export interface BotMarket {
  id: string;
  pricePrecision: number;
  amountPrecision: number;
  /** Where the bot's price is pulled back to when it wanders off (the demo reference price). */
  reference: bigint;
  /** The distance between two of its outer price levels (its best bid and ask are closer). */
  step: bigint;
  /** The largest order it quotes; it takes up to half of it at once. */
  volume: bigint;
  minVolume: bigint;
}

/** What the bot reports: errors of the API as it saw them. */
export interface BotLog {
  warn(message: string): void;
}

/** Price levels the bot keeps on each side of its price. */
export const BOT_LEVELS = 5;

interface OpenOrder {
  id: number;
  side: Side;
  price: string;
  remaining_volume: string;
}

/**
 * A small market maker for the demo (in the manner of OpenDAX's Arke). On every tick, for each market, the
 * maker account keeps {@link BOT_LEVELS} limit orders on each side of a price that walks at the volatility of
 * the demo history (walk.ts), cancelling the ones left off its levels, and the taker account sends a small
 * market order on a random side against the best of them, so the market trades every few seconds and its
 * candles continue the history's. It trades only through the public HTTP API, signed with API keys, so it
 * doubles as a continuous check of that API: every refusal and failure is logged.
 */
export class LiquidityBot {
  /** Each market's price, in price units × {@link FINE}. */
  private readonly prices = new Map<string, bigint>();
  private readonly random = new DemoRandom(`bot:${Date.now()}`);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly maker: SignedApiClient,
    private readonly taker: SignedApiClient,
    private readonly markets: BotMarket[],
    private readonly intervalMs: number,
    private readonly log: BotLog,
  ) {}

  /** Starts ticking every `intervalMs`. */
  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Stops ticking and waits for a tick under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = undefined;
        this.schedule();
      });
    }, this.intervalMs);
    this.timer.unref();
  }

  /** One round over every market; a market's failure is logged and does not stop the others. */
  async tick(): Promise<void> {
    for (const market of this.markets) {
      if (this.stopped) return;
      try {
        await this.quote(market);
        await this.trade(market);
      } catch (err) {
        this.log.warn(`demo bot: ${market.id}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /**
   * Moves the market's price one tick of the walk and makes the maker's orders match the levels around it. A
   * best bid or ask that the taker has eaten into below half the quoted volume is placed afresh, so a market
   * order never reaches past it to the next level.
   */
  private async quote(market: BotMarket): Promise<void> {
    const price = await this.nextPrice(market);
    const { buys, sells } = quoteLevels(price, market.step, BOT_LEVELS);
    const key = (side: Side, units: bigint) => `${side}:${formatUnits(units, market.pricePrecision)}`;
    const wanted = new Map<string, Side>();
    for (const p of buys) wanted.set(key('buy', p), 'buy');
    for (const p of sells) wanted.set(key('sell', p), 'sell');
    const best = new Set(
      [buys[0], sells[0]].map((p, i) => (p === undefined ? '' : key(i ? 'sell' : 'buy', p))),
    );
    const open = await this.maker.call<OpenOrder[]>(
      'GET',
      `/market/orders?market=${market.id}&state=wait&limit=100`,
    );
    for (const order of open) {
      const k = key(order.side, toUnits(order.price, market.pricePrecision));
      const thin =
        best.has(k) && toUnits(order.remaining_volume, market.amountPrecision) < market.volume / 2n;
      if (!thin && wanted.delete(k)) continue;
      await this.maker.call('POST', `/market/orders/${order.id}/cancel`);
    }
    for (const [k, side] of wanted) {
      const levelPrice = k.slice(k.indexOf(':') + 1);
      if (toUnits(levelPrice, market.pricePrecision) <= 0n) continue;
      await this.place(this.maker, market, {
        market: market.id,
        side,
        ord_type: 'limit',
        price: levelPrice,
        volume: formatUnits(this.random.big(market.volume / 2n, market.volume), market.amountPrecision),
      });
    }
  }

  /** The taker meets the best order on a random side with a small market order. */
  private async trade(market: BotMarket): Promise<void> {
    const most = market.volume / 2n > market.minVolume ? market.volume / 2n : market.minVolume;
    await this.place(this.taker, market, {
      market: market.id,
      side: this.random.oneIn(2) ? 'buy' : 'sell',
      ord_type: 'market',
      volume: formatUnits(this.random.big(market.minVolume, most), market.amountPrecision),
    });
  }

  private async place(client: SignedApiClient, market: BotMarket, order: PlaceOrderInput): Promise<void> {
    try {
      await client.call('POST', '/market/orders', order);
    } catch (err) {
      if (!(err instanceof ApiCallError)) throw err;
      this.log.warn(`demo bot: ${market.id} ${order.ord_type} ${order.side}: ${err.message}`);
    }
  }

  /**
   * Starts from the market's last price; then one tick of the walk (a move of at most {@link maxMovePpm} for
   * this interval), kept inside the band. Answers the price in price units.
   */
  private async nextPrice(market: BotMarket): Promise<bigint> {
    let fine = this.prices.get(market.id);
    if (fine === undefined) {
      const ticker = await this.maker.call<{ ticker: { last: string } }>(
        'GET',
        `/public/markets/${market.id}/tickers`,
      );
      const last = toUnits(ticker.ticker.last, market.pricePrecision);
      fine = (last > 0n ? last : market.reference) * FINE;
    }
    const most = maxMovePpm(this.intervalMs);
    fine = walk(fine, this.random.big(-most, most), market);
    this.prices.set(market.id, fine);
    return (fine + FINE / 2n) / FINE;
  }
}
