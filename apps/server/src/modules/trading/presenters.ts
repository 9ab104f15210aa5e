import type { OrderView } from '@exchange/engine';
import { formatUnits, type OrderEntity, type StopLossType } from '@exchange/shared';
import { orderUuid } from '../../core/order-uuid.ts';
import type { Units } from '../../core/persistence.ts';

export type { OrderEntity };

/** The stop kind of an order type: stop-loss, take-profit, or `null` for orders without a stop. */
export function stopLossType(ordType: string): StopLossType {
  if (ordType === 'stop_loss_limit' || ordType === 'stop_loss_order') return 'stop_loss';
  if (ordType === 'take_profit_limit') return 'take_profit';
  return null;
}

/**
 * Average fill price in ticks: quote paid or received over executed volume, rounded down to the price tick
 * (exact integer division; no floats).
 */
function avgPriceTicks(units: Units, o: OrderView): bigint {
  if (o.executedVolume === 0n) return 0n;
  const m = units.market(o.market);
  const quote = o.side === 'buy' ? o.fundsSpent : o.fundsReceived;
  const scale = 10n ** BigInt(m.quotePrecision - m.pricePrecision - m.amountPrecision);
  return quote / (o.executedVolume * scale);
}

/** Formats an engine order view (the committed final state of a command) as the Peatio order entity. */
export function orderEntity(units: Units, o: OrderView): OrderEntity {
  const m = units.market(o.market);
  const price = (v: bigint | null) => (v === null ? null : formatUnits(v, m.pricePrecision, 1));
  const volume = (v: bigint) => formatUnits(v, m.amountPrecision, 1);
  return {
    id: o.id,
    uuid: orderUuid(o.id),
    side: o.side,
    ord_type: o.ordType,
    price: price(o.price),
    stop_price: price(o.stopPrice),
    avg_price: formatUnits(avgPriceTicks(units, o), m.pricePrecision, 1),
    state: o.state,
    market: o.market,
    market_type: 'spot',
    created_at: new Date(o.createdAt).toISOString(),
    updated_at: new Date(o.updatedAt).toISOString(),
    origin_volume: volume(o.originVolume),
    remaining_volume: volume(o.remainingVolume),
    executed_volume: volume(o.executedVolume),
    maker_fee: formatUnits(o.makerFee, 6, 1),
    taker_fee: formatUnits(o.takerFee, 6, 1),
    trades_count: o.tradesCount,
    stop_loss_type: stopLossType(o.ordType),
    time_in_force: o.timeInForce,
    post_only: o.postOnly,
    bid: m.quote,
    ask: m.base,
  };
}

/**
 * The private `order` event as Ranger sends it: the order entity with Peatio's `kind` (`bid` for a buy, `ask` for a
 * sell) and its times as integer Unix seconds (`at`, the creation, then `created_at` and `updated_at`), where the
 * REST entity gives ISO 8601 texts.
 */
export function orderEvent(units: Units, o: OrderView) {
  const seconds = (ms: number) => Math.floor(ms / 1000);
  return {
    ...orderEntity(units, o),
    kind: o.side === 'buy' ? 'bid' : 'ask',
    at: seconds(o.createdAt),
    created_at: seconds(o.createdAt),
    updated_at: seconds(o.updatedAt),
  };
}
