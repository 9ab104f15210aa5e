import { describe, expect, it } from 'vitest';
import { marketOrderSchema } from '../src/schemas/trading.ts';
import { fieldErrors } from '../src/validation.ts';

/** trxusdt-like rules: whole units from 1, prices to 4 decimals. */
const schema = marketOrderSchema({ min_amount: '1', amount_precision: 1, price_precision: 4 });
const base = { market: 'trxusdt', side: 'buy' } as const;

/** The first code per field, or "ok". */
function check(order: Record<string, unknown>): Record<string, string> | 'ok' {
  const parsed = schema.safeParse({ ...base, ...order });
  return parsed.success ? 'ok' : fieldErrors(parsed.error);
}

describe('marketOrderSchema', () => {
  it('accepts each order type with the fields it needs', () => {
    expect(check({ ord_type: 'limit', volume: '1.5', price: '0.25' })).toBe('ok');
    expect(check({ ord_type: 'market', volume: '2' })).toBe('ok');
    expect(check({ ord_type: 'stop_loss_limit', volume: '2', price: '0.2', stop_price: '0.21' })).toBe('ok');
    expect(check({ ord_type: 'take_profit_limit', volume: '2', price: '0.3', stop_price: '0.29' })).toBe(
      'ok',
    );
    expect(check({ ord_type: 'stop_loss_order', volume: '2', stop_price: '0.2' })).toBe('ok');
    // Trailing zeros are not extra precision.
    expect(check({ ord_type: 'limit', volume: '1.50', price: '0.250000' })).toBe('ok');
  });

  it('puts the volume refusals on the volume field', () => {
    expect(check({ ord_type: 'market', volume: '0.5' })).toEqual({ volume: 'market.order.invalid_volume' });
    expect(check({ ord_type: 'market', volume: '0' })).toEqual({
      volume: 'market.order.non_positive_volume',
    });
    expect(check({ ord_type: 'market', volume: '1.25' })).toEqual({
      volume: 'market.order.invalid_volume_precision',
    });
    expect(check({ ord_type: 'market', volume: '' })).toEqual({ volume: 'market.order.invalid_volume' });
  });

  it('asks for a price on limit-priced types and refuses one on market types', () => {
    expect(check({ ord_type: 'limit', volume: '1' })).toEqual({ price: 'market.order.missing_price' });
    expect(check({ ord_type: 'take_profit_limit', volume: '1', stop_price: '0.3' })).toEqual({
      price: 'market.order.missing_price',
    });
    expect(check({ ord_type: 'market', volume: '1', price: '0.2' })).toEqual({
      price: 'market.order.market_order_price',
    });
    expect(check({ ord_type: 'stop_loss_order', volume: '1', price: '0.2', stop_price: '0.2' })).toEqual({
      price: 'market.order.market_order_price',
    });
    expect(check({ ord_type: 'limit', volume: '1', price: '0.00001' })).toEqual({
      price: 'market.order.invalid_price_precision',
    });
    expect(check({ ord_type: 'limit', volume: '1', price: '0' })).toEqual({
      price: 'market.order.non_positive_price',
    });
  });

  it('asks for a stop price on stop types and refuses one elsewhere', () => {
    expect(check({ ord_type: 'stop_loss_order', volume: '1' })).toEqual({
      stop_price: 'market.order.missing_stop_price',
    });
    expect(check({ ord_type: 'stop_loss_limit', volume: '1', price: '0.2' })).toEqual({
      stop_price: 'market.order.missing_stop_price',
    });
    expect(check({ ord_type: 'limit', volume: '1', price: '0.2', stop_price: '0.2' })).toEqual({
      stop_price: 'market.order.unexpected_stop_price',
    });
    expect(check({ ord_type: 'stop_loss_order', volume: '1', stop_price: '0.20001' })).toEqual({
      stop_price: 'market.order.invalid_price_precision',
    });
    expect(check({ ord_type: 'stop_loss_order', volume: '1', stop_price: '0' })).toEqual({
      stop_price: 'market.order.non_positive_stop_price',
    });
  });

  it('takes a time in force and post-only on limit orders, and refuses them where they do not fit', () => {
    const limit = { ord_type: 'limit', volume: '1', price: '0.2' };
    for (const time_in_force of ['gtc', 'ioc', 'fok']) expect(check({ ...limit, time_in_force })).toBe('ok');
    expect(check({ ...limit, post_only: true, time_in_force: 'gtc' })).toBe('ok');
    expect(check({ ...limit, post_only: 'false', time_in_force: 'fok' })).toBe('ok');
    expect(check({ ...limit, time_in_force: 'day' })).toEqual({
      time_in_force: 'market.order.invalid_time_in_force',
    });
    expect(check({ ...limit, post_only: 'yes' })).toEqual({ post_only: 'market.order.invalid_post_only' });
    expect(check({ ord_type: 'market', volume: '1', time_in_force: 'gtc' })).toEqual({
      time_in_force: 'market.order.market_order_time_in_force',
    });
    const stop = { ord_type: 'stop_loss_limit', volume: '1', price: '0.2', stop_price: '0.2' };
    expect(check({ ...stop, time_in_force: 'gtc' })).toBe('ok');
    expect(check({ ...stop, time_in_force: 'ioc' })).toEqual({
      time_in_force: 'market.order.stop_order_time_in_force',
    });
    expect(check({ ...stop, post_only: true })).toEqual({ post_only: 'market.order.post_only_not_limit' });
    expect(check({ ord_type: 'market', volume: '1', post_only: true })).toEqual({
      post_only: 'market.order.post_only_not_limit',
    });
    expect(check({ ...limit, post_only: true, time_in_force: 'ioc' })).toEqual({
      post_only: 'market.order.post_only_time_in_force',
    });
  });

  it('reports every refused field at once', () => {
    expect(check({ ord_type: 'stop_loss_limit', volume: '0.5', price: '0.123456' })).toEqual({
      volume: 'market.order.invalid_volume',
      price: 'market.order.invalid_price_precision',
      stop_price: 'market.order.missing_stop_price',
    });
  });
});
