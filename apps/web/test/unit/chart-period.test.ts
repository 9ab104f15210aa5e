import { describe, expect, it } from 'vitest';
import {
  candleReadout,
  MAX_FRAME_CANDLES,
  PERIODS,
  periodForFrame,
  TIME_FRAMES,
} from '../../src/features/trading/chart-period.ts';

describe('candle size for a time frame', () => {
  it('fits each frame in a readable number of candles', () => {
    expect(periodForFrame('1d')).toBe('15m');
    expect(periodForFrame('5d')).toBe('1h');
    expect(periodForFrame('1m')).toBe('4h');
    expect(periodForFrame('3m')).toBe('12h');
    expect(periodForFrame('6m')).toBe('1d');
    expect(periodForFrame('1y')).toBe('3d');
    expect(periodForFrame('5y')).toBe('1w');
  });

  it('never gives a frame a single candle, nor more than the maximum unless no period is longer', () => {
    for (const [frame, seconds] of Object.entries(TIME_FRAMES)) {
      const minutes = PERIODS[periodForFrame(frame)] ?? 0;
      const candles = seconds / (minutes * 60);
      expect(candles, frame).toBeGreaterThanOrEqual(60);
      if (frame !== '5y') expect(candles, frame).toBeLessThanOrEqual(MAX_FRAME_CANDLES);
    }
  });
});

describe('candle readout', () => {
  it('writes prices and volume at the market precisions, cut not rounded', () => {
    expect(candleReadout([0, 0.05, 0.05019, 0.049999, 0.0501, 12.3456], 5, 3)).toEqual({
      open: '0.05000',
      high: '0.05019',
      low: '0.04999',
      close: '0.05010',
      volume: '12.345',
    });
    expect(candleReadout([0, 1e-7, 1, 0, 1, 0], 8, 2).open).toBe('0.00000010');
  });
});
