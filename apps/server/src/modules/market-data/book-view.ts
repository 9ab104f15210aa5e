import type { OrderView } from '@exchange/engine';

/** A price level that changed: its new total volume (0n = gone). */
export interface LevelChange {
  side: 'buy' | 'sell';
  price: bigint;
  volume: bigint;
}

/** True when an order rests in the book: open, priced, and (for stop orders) triggered. */
export function restsInBook(o: OrderView): boolean {
  if (o.state !== 'wait' && o.state !== 'pending') return false;
  if (o.price === null || o.ordType === 'market' || o.ordType === 'stop_loss_order') return false;
  return o.ordType === 'limit' || o.triggeredAt !== null;
}

/**
 * One market's order book as committed: price levels built from the final order states of committed batches.
 * Streams and the depth endpoint read this, never the engine's in-memory state, which may be ahead of disk.
 */
export class BookView {
  private readonly levels = { buy: new Map<bigint, bigint>(), sell: new Map<bigint, bigint>() };
  private readonly resting = new Map<number, { side: 'buy' | 'sell'; price: bigint; volume: bigint }>();
  /** Increments by one per published level change (`ob-inc`), so clients can detect gaps. */
  sequence = 0;

  /** Applies an order's new state; returns the levels whose volume changed. */
  apply(o: OrderView, changes: Map<string, LevelChange>): void {
    const before = this.resting.get(o.id);
    if (before) this.adjust(before.side, before.price, -before.volume, changes);
    if (restsInBook(o) && o.price !== null && o.remainingVolume > 0n) {
      this.resting.set(o.id, { side: o.side, price: o.price, volume: o.remainingVolume });
      this.adjust(o.side, o.price, o.remainingVolume, changes);
    } else this.resting.delete(o.id);
  }

  private adjust(
    side: 'buy' | 'sell',
    price: bigint,
    delta: bigint,
    changes: Map<string, LevelChange>,
  ): void {
    const level = this.levels[side];
    const volume = (level.get(price) ?? 0n) + delta;
    if (volume === 0n) level.delete(price);
    else level.set(price, volume);
    changes.set(`${side}:${price}`, { side, price, volume });
  }

  /** Best `limit` levels per side: asks ascending, bids descending. */
  depth(limit: number): { asks: [bigint, bigint][]; bids: [bigint, bigint][] } {
    const sorted = (side: 'buy' | 'sell') =>
      [...this.levels[side].entries()]
        .sort((a, b) => (a[0] === b[0] ? 0 : a[0] < b[0] === (side === 'sell') ? -1 : 1))
        .slice(0, limit);
    return { asks: sorted('sell'), bids: sorted('buy') };
  }
}
