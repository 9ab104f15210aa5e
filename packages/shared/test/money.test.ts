import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUnits, parseUnits, toUnits } from '../src/money.ts';

describe('parseUnits', () => {
  it('parses whole and fractional amounts exactly', () => {
    expect(parseUnits('1', 8)).toEqual({ ok: true, units: 100_000_000n });
    expect(parseUnits('0.00000001', 8)).toEqual({ ok: true, units: 1n });
    expect(parseUnits('123456789.123456789012345678', 18)).toEqual({
      ok: true,
      units: 123456789123456789012345678n,
    });
    expect(parseUnits('1.500', 2)).toEqual({ ok: true, units: 150n });
  });

  it('refuses excess precision instead of rounding', () => {
    expect(parseUnits('0.123', 2)).toEqual({ ok: false, error: 'too_precise' });
    expect(parseUnits('1.000000001', 8)).toEqual({ ok: false, error: 'too_precise' });
  });

  it('refuses malformed input', () => {
    for (const bad of ['', '-1', '1e5', '01', '.5', '1.', '1,5', 'NaN', '0x10', ' ', '1.2.3']) {
      expect(parseUnits(bad, 8)).toEqual({ ok: false, error: 'invalid' });
    }
  });
});

describe('formatUnits', () => {
  it('trims trailing zeros and keeps negative signs', () => {
    expect(formatUnits(150n, 2)).toBe('1.5');
    expect(formatUnits(0n, 8)).toBe('0');
    expect(formatUnits(-25n, 2)).toBe('-0.25');
    expect(formatUnits(100n, 0)).toBe('100');
    expect(formatUnits(1n, 8, 2)).toBe('0.00000001');
    expect(formatUnits(100n, 2, 2)).toBe('1.00');
  });

  it('round-trips with toUnits for any amount and precision', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 18 }),
        (u, p) => {
          expect(toUnits(formatUnits(u, p), p)).toBe(u);
        },
      ),
      { seed: 42, numRuns: 2000 },
    );
  });
});
