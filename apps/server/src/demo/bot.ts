import type { Side } from '@exchange/engine';
import { formatUnits, type PlaceOrderInput, toUnits } from '@exchange/shared';
import { ApiCallError, type SignedApiClient } from './api-client.ts';
import { DemoRandom } from './random.ts';

/** A market the bot keeps alive, in its own integer units. */
export interface BotMarket {
  id: string;
  pricePrecision: number;
  amountPrecision: number;
  /** Where the bot's price is pulled back to when it wanders off (the demo reference price). */
  reference: bigint;
  /** The distance between two of its price levels. */
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

/** The bot's price keeps within this many percent of the reference price. */
const BAND_PERCENT = 25n;

interface OpenOrder {
  id: number;
  side: Side;
  price: string;
}

/**
 * A small market maker for the demo (in the manner of OpenDAX's Arke). On every tick, for each market, the
 * maker account keeps {@link BOT_LEVELS} limit orders on each side of a price that drifts a step at a time,
 * cancelling the ones left off the grid, and the taker account sends a small market order on a random side, so
 * the market trades every few seconds. It trades only through the public HTTP API, signed with API keys, so it
 * doubles as a continuous check of that API: every refusal and failure is logged.
 */
export class LiquidityBot {
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

  /** Moves the market's price by at most a step and makes the maker's orders match the levels around it. */
  private async quote(market: BotMarket): Promise<void> {
    const price = await this.nextPrice(market);
    const wanted = new Map<string, Side>();
    const centre = (price / market.step) * market.step;
    for (let i = 1n; i <= BigInt(BOT_LEVELS); i++) {
      wanted.set(`buy:${formatUnits(centre - market.step * i, market.pricePrecision)}`, 'buy');
      wanted.set(`sell:${formatUnits(centre + market.step * i, market.pricePrecision)}`, 'sell');
    }
    const open = await this.maker.call<OpenOrder[]>(
      'GET',
      `/market/orders?market=${market.id}&state=wait&limit=100`,
    );
    for (const order of open) {
      const key = `${order.side}:${formatUnits(toUnits(order.price, market.pricePrecision), market.pricePrecision)}`;
      if (wanted.delete(key)) continue;
      await this.maker.call('POST', `/market/orders/${order.id}/cancel`);
    }
    for (const [key, side] of wanted) {
      const levelPrice = key.slice(key.indexOf(':') + 1);
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

  /** Starts from the market's last price; then a step up or down now and then, kept inside the band. */
  private async nextPrice(market: BotMarket): Promise<bigint> {
    let price = this.prices.get(market.id);
    if (price === undefined) {
      const ticker = await this.maker.call<{ ticker: { last: string } }>(
        'GET',
        `/public/markets/${market.id}/tickers`,
      );
      price = toUnits(ticker.ticker.last, market.pricePrecision);
      if (price <= 0n) price = market.reference;
    }
    const move = this.random.int(-1, 1);
    price += market.step * BigInt(move);
    const low = (market.reference * (100n - BAND_PERCENT)) / 100n;
    const high = (market.reference * (100n + BAND_PERCENT)) / 100n;
    if (price < low) price = low;
    if (price > high) price = high;
    this.prices.set(market.id, price);
    return price;
  }
}
