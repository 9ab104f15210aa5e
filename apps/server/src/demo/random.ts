/**
 * A small deterministic generator (mulberry32) for the demo markets: the same seed gives the same sequence on
 * every machine. Integers only; nothing here is a float, so prices and volumes drawn from it stay exact.
 */
export class DemoRandom {
  private state: number;

  constructor(seed: string) {
    // FNV-1a of the seed text, so a market's name picks its own sequence.
    let h = 0x811c9dc5;
    for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
    this.state = h;
  }

  /** The next unsigned 32-bit integer. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + (this.next() % (max - min + 1));
  }

  /** A bigint in [min, max] (both included), from 64 random bits. */
  big(min: bigint, max: bigint): bigint {
    const bits = (BigInt(this.next()) << 32n) | BigInt(this.next());
    return min + (bits % (max - min + 1n));
  }

  /** True about once in `n` draws. */
  oneIn(n: number): boolean {
    return this.next() % n === 0;
  }
}
