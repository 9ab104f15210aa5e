import { units } from '../../components/format.tsx';
import type { Market, Order } from './api.ts';

/** Buy green, sell red (docs/trading.md#constants). */
export const sideColor = (side: string) => (side === 'buy' ? 'teal' : 'red');

/** Label key of an order state (docs/trading.md#states): unknown shows New. */
export function stateKey(state: string): string {
  const known = ['wait', 'pending', 'done', 'cancel', 'reject'];
  return `trading.state.${known.includes(state) ? state : 'wait'}`;
}

/** History label (docs/trading.md#states): New if nothing traded, Full when nothing remains, else Partial. */
export function fillKey(order: Order): string {
  if (units(order.remaining_volume) === 0n) return 'trading.fill.full';
  if (units(order.executed_volume) === 0n) return 'trading.fill.new';
  return 'trading.fill.partial';
}

/** Open-order label: New with no trades, else Partial. */
export const openFillKey = (order: Order) =>
  order.trades_count > 0 || units(order.executed_volume) > 0n ? 'trading.fill.partial' : 'trading.fill.new';

export const ORDER_TYPE_KEYS: Record<string, string> = {
  limit: 'trading.type.limit',
  market: 'trading.type.market',
  stop_loss_limit: 'trading.type.stop_loss_limit',
  take_profit_limit: 'trading.type.take_profit_limit',
  stop_loss_order: 'trading.type.stop_loss_order',
};

/** "ETH/BTC" from a market's units. */
export const pairName = (base: string, quote: string) => `${base.toUpperCase()}/${quote.toUpperCase()}`;

/** The pair name of a market id from the market list (`ETH/BTC`), or the id in capitals while the list loads. */
export function marketPairName(markets: readonly Market[] | undefined, id: string): string {
  const m = markets?.find((x) => x.id === id);
  return m ? pairName(m.base_unit, m.quote_unit) : id.toUpperCase();
}

/**
 * Whether a stop order enters the book when the last price falls to its stop price (else when it rises to it): a
 * stop-loss sells on the way down and buys on the way up, a take-profit the other way round (as the engine does).
 */
export const triggersDown = (ordType: string, side: string) =>
  (ordType === 'take_profit_limit') === (side === 'buy');
