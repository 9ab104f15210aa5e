import { afterEach, describe, expect, it } from 'vitest';
import { fixed, isoDate, longDate, rounded, shortDate, timeOnly } from '../../src/components/format.tsx';

const original = process.env.TZ;
afterEach(() => {
  process.env.TZ = original;
});

describe('timestamps in the user time zone (docs/trading.md#constants formats)', () => {
  const at = '2026-01-02T23:04:05Z';

  it('formats in Tokyo time (UTC+9, the next day)', () => {
    process.env.TZ = 'Asia/Tokyo';
    expect(shortDate(at)).toBe('03/01 08:04');
    expect(longDate(at)).toBe('03/01/2026 08:04:05');
    expect(isoDate(at)).toBe('2026-01-03 , 08:04:05');
    expect(timeOnly(at)).toBe('08:04:05');
  });

  it('formats in New York time (UTC-5)', () => {
    process.env.TZ = 'America/New_York';
    expect(shortDate(at)).toBe('02/01 18:04');
    expect(longDate(at)).toBe('02/01/2026 18:04:05');
    expect(isoDate(at)).toBe('2026-01-02 , 18:04:05');
  });
});

describe('fixed', () => {
  it('truncates to the precision without rounding up, padding to a minimum', () => {
    expect(fixed('0.123456789', 5)).toBe('0.12345');
    expect(fixed('0.05', 5, 5)).toBe('0.05000');
    expect(fixed('2', 3, 3)).toBe('2.000');
  });
});

describe('amounts rounded to a precision (swap history You Get, docs/wallet.md#screens)', () => {
  it('rounds half up to the decimals, exactly, and keeps a value that already fits', () => {
    expect(rounded('0.00154535', 8)).toBe('0.00154535');
    expect(rounded('0.00154535', 6)).toBe('0.001545');
    expect(rounded('0.0015455', 6)).toBe('0.001546');
    expect(rounded('12.333324', 6)).toBe('12.333324');
    expect(rounded('1.999999999', 8)).toBe('2');
    expect(rounded('0.000000004', 8)).toBe('0');
  });
});
