import { describe, expect, it } from 'vitest';
import { acceptAmount, depositProgress, sliderAmount } from '../../src/features/wallet/format.ts';

describe('withdraw amount', () => {
  it('the 100 % slider is everything available, exactly, however long', () => {
    expect(sliderAmount('1000545.300046', 6, 100)).toBe('1000545.300046');
    expect(sliderAmount('1000545300.046001', 6, 100)).toBe('1000545300.046001');
    expect(sliderAmount('1.123456789012345678', 18, 100)).toBe('1.123456789012345678');
    expect(sliderAmount('1000545.300046', 6, 25)).toBe('250136.325011');
    expect(sliderAmount('1000545.300046', 6, 0)).toBe('0');
    expect(sliderAmount('', 6, 100)).toBe('0');
  });

  it('typing keeps to 10 characters and 10 decimals, but a long slider value can be shortened', () => {
    expect(acceptAmount('1234567890', 6)).toBe('1234567890');
    expect(acceptAmount('12345678901', 6)).toBeUndefined();
    expect(acceptAmount('1.1234567', 6)).toBeUndefined();
    expect(acceptAmount('.5', 6)).toBe('0.5');
    expect(acceptAmount('1000545.30004', 6, '1000545.300046')).toBe('1000545.30004');
    expect(acceptAmount('1000545.3000467', 6, '1000545.300046')).toBeUndefined();
  });
});

describe('deposit confirmations', () => {
  it('shows n out of what the network needs (30 when it does not say)', () => {
    expect(depositProgress({ confirmations: 1 }, { min_confirmations: 30 })).toEqual({ n: 1, needed: 30 });
    expect(depositProgress({ confirmations: 7 }, undefined)).toEqual({ n: 7, needed: 30 });
    expect(depositProgress({ confirmations: 40 }, { min_confirmations: 12 })).toEqual({ n: 12, needed: 12 });
    expect(depositProgress({}, { min_confirmations: 30 })).toBeUndefined();
  });
});
