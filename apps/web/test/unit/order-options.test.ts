import { describe, expect, it } from 'vitest';
import { limitOptionFields, placementOutcome } from '../../src/features/trading/OrderForm.tsx';
import { t } from '../../src/i18n/index.ts';

describe('limit order options in the order form (issue 32)', () => {
  it('sends only the options that differ from the defaults', () => {
    expect(limitOptionFields({ timeInForce: 'gtc', postOnly: false })).toEqual({});
    expect(limitOptionFields({ timeInForce: 'ioc', postOnly: false })).toEqual({ time_in_force: 'ioc' });
    expect(limitOptionFields({ timeInForce: 'fok', postOnly: false })).toEqual({ time_in_force: 'fok' });
    expect(limitOptionFields({ timeInForce: 'gtc', postOnly: true })).toEqual({ post_only: true });
  });

  it('says why an order was cancelled untouched as it was placed', () => {
    const cancelled = { state: 'cancel', executed_volume: '0.0' };
    expect(t(placementOutcome({ ...cancelled, cancel_reason: 'fill_or_kill' }))).toBe(
      'Order cancelled: the book could not fill all of it at once, so nothing was traded',
    );
    expect(t(placementOutcome({ ...cancelled, cancel_reason: 'post_only' }))).toBe(
      'Order cancelled: it would have traded at once, and post only orders never do',
    );
    expect(t(placementOutcome({ ...cancelled, cancel_reason: 'unfilled' }))).toBe(
      'Order cancelled: there was nothing to fill it',
    );
    // An ioc order that filled in part was placed: its rest was cancelled.
    expect(t(placementOutcome({ state: 'cancel', executed_volume: '1.0', cancel_reason: 'unfilled' }))).toBe(
      'Order placed successfully',
    );
  });
});
