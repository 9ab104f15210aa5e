import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { largestTopupFor, loadableTopup, quickTopup, topupFee } from '../src/card-topup.ts';

/** Card top-up arithmetic (docs/cards.md#validation, issue 32): the fee on top, and what can be loaded. */

const USDT = 1_000_000n;

describe('card top-up fee', () => {
  it('is the percent of the amount, rounded up to the unit', () => {
    expect(topupFee(100n * USDT, '1')).toBe(USDT);
    expect(topupFee(1n, '1')).toBe(1n);
    expect(topupFee(0n, '1')).toBe(0n);
    expect(topupFee(150n * USDT, '0.25')).toBe(375_000n);
  });
});

describe('largest top-up a balance pays, fee included', () => {
  it('is exactly the greatest amount whose amount + fee fits', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.constantFrom('0', '1', '0.5', '2.75', '0.000001', '10'),
        (spot, percent) => {
          const a = largestTopupFor(spot, percent);
          expect(a).toBeGreaterThanOrEqual(0n);
          expect(a + topupFee(a, percent)).toBeLessThanOrEqual(spot);
          if (spot > 0n) expect(a + 1n + topupFee(a + 1n, percent)).toBeGreaterThan(spot);
        },
      ),
    );
  });

  it('gives 100 for 101 at 1 %', () => {
    expect(largestTopupFor(101n * USDT, '1')).toBe(100n * USDT);
  });
});

describe('what can be loaded now', () => {
  const room = {
    spot: 97_706_125_000n,
    feePercent: '1',
    cardBalance: 0n,
    pending: 0n,
    today: 0n,
    dailyLimit: 5_000n * USDT,
    loadLimit: 10_000n * USDT,
  };
  it('is the least of balance less fee, the day left and the room under the load limit, never negative', () => {
    expect(loadableTopup(room)).toBe(5_000n * USDT);
    expect(loadableTopup({ ...room, today: 4_500n * USDT })).toBe(500n * USDT);
    expect(loadableTopup({ ...room, cardBalance: 9_000n * USDT, pending: 800n * USDT })).toBe(200n * USDT);
    expect(loadableTopup({ ...room, spot: 202n * USDT })).toBe(200n * USDT);
    expect(loadableTopup({ ...room, cardBalance: 11_000n * USDT })).toBe(0n);
    expect(loadableTopup({ ...room, spot: 0n })).toBe(0n);
  });

  it('splits into the quick buttons, rounded down', () => {
    expect(quickTopup(5_000n * USDT, 25)).toBe(1_250n * USDT);
    expect(quickTopup(3n, 50)).toBe(1n);
  });
});
