import type { CommandResult, OrderView } from '@exchange/engine';
import { ORDER_ERRORS, orderRuleIssues, type PlaceOrderInput, toUnits } from '@exchange/shared';
import type { Core } from '../../core/index.ts';
import { AppError, invalid, notFound } from '../../http/errors.ts';
import { type OrderEntity, orderEntity } from './presenters.ts';

function touched(result: CommandResult, id: number | null): OrderView | undefined {
  return result.orders.find((o) => o.id === id);
}

/**
 * Places an order through the core; answers once it is in the command journal (durable). Refusals are 422 with the first code of
 * the market rules ({@link orderRuleIssues}) or the engine's; nothing changes on refusal. With `client_id`, a repeat returns the first order.
 */
export async function placeOrder(
  core: Core,
  userId: number,
  input: PlaceOrderInput,
  /** Reads a committed order (a repeated client id may name one the engine has already closed). */
  stored: (orderId: number) => Promise<OrderEntity | undefined>,
): Promise<OrderEntity> {
  const market = core.markets.get(input.market);
  if (!market) throw invalid(ORDER_ERRORS.marketUnavailable);
  // The route parsed the input; these are the same market rules the web form's schema checks. The first issue
  // is the answer, as the engine gives one code.
  const [issue] = orderRuleIssues(input, {
    min_amount: market.minAmount,
    amount_precision: market.amountPrecision,
    price_precision: market.pricePrecision,
  });
  if (issue) throw invalid(issue.code);
  const volume = toUnits(input.volume, market.amountPrecision);
  const price = input.price === undefined ? undefined : toUnits(input.price, market.pricePrecision);
  const stopPrice =
    input.stop_price === undefined ? undefined : toUnits(input.stop_price, market.pricePrecision);
  const result = await core.sequencer.submit(
    {
      type: 'PlaceOrder',
      user: userId,
      market: market.id,
      side: input.side,
      ordType: input.ord_type,
      volume,
      ...(price === undefined ? {} : { price }),
      ...(stopPrice === undefined ? {} : { stopPrice }),
      ...(input.time_in_force === undefined ? {} : { timeInForce: input.time_in_force }),
      ...(input.post_only === undefined ? {} : { postOnly: input.post_only }),
    },
    input.client_id ? `order:${userId}:${input.client_id}` : undefined,
    // Answered once the order is in the journal: its effects are certain, and the user's reads wait for the
    // tables (see the trading routes).
    { ack: 'journal' },
  );
  if (!result.ok) throw invalid(result.code ?? ORDER_ERRORS.invalidVolume);
  const order = touched(result, result.orderId);
  if (order) {
    // Cancelled by the engine while placing (self-trade prevention, nothing to fill, a spent market budget, a fok
    // order the book cannot fill wholly, a post-only order that would take): say why.
    const cancelled = result.events.find((e) => e.type === 'OrderCancelled' && e.orderId === order.id);
    const entity = orderEntity(core.units, order);
    return cancelled?.type === 'OrderCancelled' ? { ...entity, cancel_reason: cancelled.reason } : entity;
  }
  // A repeated client id: the order was placed by the first request; read its committed state from the tables.
  if (result.orderId !== null) await core.sequencer.settled();
  const earlier = result.orderId === null ? undefined : await stored(result.orderId);
  if (!earlier) throw new AppError(409, [ORDER_ERRORS.orderNotFound]);
  return earlier;
}

/** Cancels one open order of the user; someone else's, unknown or closed orders are 404 `record.not_found` (Peatio's). */
export async function cancelOrder(core: Core, userId: number, orderId: number): Promise<OrderEntity> {
  const result = await core.sequencer.submit({ type: 'CancelOrder', user: userId, orderId }, undefined, {
    ack: 'journal',
  });
  const order = touched(result, orderId);
  if (!result.ok || !order) throw notFound();
  return orderEntity(core.units, order);
}

/** Cancels all open orders of the user, optionally in one market and/or on one side. */
export async function cancelAll(
  core: Core,
  userId: number,
  filter: { market?: string; side?: 'buy' | 'sell' },
) {
  const result = await core.sequencer.submit({ type: 'CancelAll', user: userId, ...filter }, undefined, {
    ack: 'journal',
  });
  return result.orders.map((o) => orderEntity(core.units, o));
}
