import type { CommandResult, UpdateMarket } from '@exchange/engine';
import {
  type AddMarketInput,
  type AdminMarketEntity,
  type AdminNetworkEntity,
  ADMIN_MARKET_ERRORS as E,
  formatUnits,
  parseUnits,
  type UpdateMarketInput,
  type UpdateNetworkInput,
} from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../core/index.ts';
import { NO_MAX_PRICE } from '../../core/market-rows.ts';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import type { Staff } from './access.ts';
import { findMarket, lockNetwork, NETWORK_COLUMNS, updateNetwork } from './markets-repository.ts';
import { recordStaffAction } from './trail.ts';

const invalid = (code: string) => new AppError(422, [code]);

/** A decimal at `precision` in integer units; excess precision is refused with `code`, never rounded. */
function units(text: string, precision: number, code: string): bigint {
  const parsed = parseUnits(text, precision);
  if (!parsed.ok) throw invalid(code);
  return parsed.units;
}

/** A positive decimal at `precision`. */
function positive(text: string, precision: number, code: string): bigint {
  const value = units(text, precision, code);
  if (value <= 0n) throw invalid(code);
  return value;
}

/** A maximum price; `0` is "no upper bound", the engine's {@link NO_MAX_PRICE}. */
function maxPrice(text: string, precision: number, min: bigint): bigint {
  const value = units(text, precision, E.invalidPrice);
  if (value === 0n) return NO_MAX_PRICE;
  if (value < min) throw invalid(E.invalidPrice);
  return value;
}

/** A fee rate ("0.001") in the engine's parts per million. */
const ppm = (rate: string) => units(rate, 6, E.invalidFee);

/**
 * Waits (briefly) until this process's market map shows the change. In one process it already does when the
 * core answers; an api process of a split deployment learns it from the batch stream a moment later, and the
 * console's next request (or a customer's order) on this process should not find the old market.
 */
async function followed(done: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 2000; !done() && Date.now() < deadline; )
    await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The engine refused what the checks here let through: the core's code says which rule. */
function refused(result: CommandResult): AppError {
  return invalid(result.code === 'admin.market.exists' ? E.exists : E.rejected);
}

/**
 * Adds a market through the exchange core: the engine takes it (empty book, its fee rule) and the batch that
 * carries it writes the `markets` and `trading_fees` rows, so the market trades at once and a restart loads
 * exactly what the core ran with. Every rule is checked here first, so the core refuses nothing it is sent.
 */
export async function addMarket(
  db: pg.Pool,
  core: Core,
  staff: Staff,
  input: AddMarketInput,
): Promise<AdminMarketEntity> {
  if (core.markets.has(input.id) || (await findMarket(db, input.id))) throw invalid(E.exists);
  const basePrecision = core.units.precisions.get(input.base_unit);
  const quotePrecision = core.units.precisions.get(input.quote_unit);
  if (basePrecision === undefined || quotePrecision === undefined || input.base_unit === input.quote_unit)
    throw invalid(E.invalidCurrency);
  const pp = input.price_precision;
  const ap = input.amount_precision;
  // price × amount must be exact in the quote currency, and an amount step a whole number of base units.
  if (pp + ap > quotePrecision || ap > basePrecision) throw invalid(E.invalidPrecision);
  const minPrice = positive(input.min_price, pp, E.invalidPrice);
  const result = await core.sequencer.submit({
    type: 'AddMarket',
    market: {
      id: input.id,
      base: input.base_unit,
      quote: input.quote_unit,
      pricePrecision: pp,
      amountPrecision: ap,
      minPrice,
      maxPrice: maxPrice(input.max_price, pp, minPrice),
      minAmount: positive(input.min_amount, ap, E.invalidAmount),
      state: input.state,
    },
    fees: { maker: ppm(input.maker_fee), taker: ppm(input.taker_fee) },
  });
  if (!result.ok) throw refused(result);
  await followed(() => core.markets.has(input.id));
  const after = (await findMarket(db, input.id)) as AdminMarketEntity;
  // After the commit: the trail says what the core did, not what was asked of it.
  await recordStaffAction(db, staff, 'market.add', `market:${input.id}`, { after });
  return after;
}

/**
 * Changes a market's state, bounds and/or fees in one core command, so orders placed after it see all of it
 * and none see half. Resting orders keep their price and fees.
 */
export async function updateMarket(
  db: pg.Pool,
  core: Core,
  staff: Staff,
  id: string,
  input: UpdateMarketInput,
): Promise<AdminMarketEntity> {
  const before = await findMarket(db, id);
  if (!before || !core.markets.has(id)) throw new AppError(404, [E.notFound]);
  const pp = before.price_precision;
  const command: Omit<UpdateMarket, 'at'> = { type: 'UpdateMarket', market: id };
  const minPrice = positive(input.min_price ?? before.min_price, pp, E.invalidPrice);
  if (input.min_price !== undefined) command.minPrice = minPrice;
  const max = maxPrice(input.max_price ?? before.max_price, pp, minPrice);
  if (input.max_price !== undefined) command.maxPrice = max;
  if (input.min_amount !== undefined)
    command.minAmount = positive(input.min_amount, before.amount_precision, E.invalidAmount);
  if (input.state !== undefined) command.state = input.state;
  if (input.maker_fee !== undefined || input.taker_fee !== undefined)
    command.fees = {
      maker: ppm(input.maker_fee ?? before.maker_fee),
      taker: ppm(input.taker_fee ?? before.taker_fee),
    };
  const result = await core.sequencer.submit(command);
  if (!result.ok) throw refused(result);
  const minAmount = command.minAmount;
  if (minAmount !== undefined) {
    const ap = before.amount_precision;
    await followed(() => core.markets.get(id)?.minAmount === formatUnits(minAmount, ap));
  }
  const after = (await findMarket(db, id)) as AdminMarketEntity;
  await recordStaffAction(db, staff, 'market.update', `market:${id}`, { before, after });
  return after;
}

/**
 * Changes a network's switches, fees and minimums. These are read where they apply (a deposit address, a
 * withdrawal request), not by the core, so the change and its trail line are one database transaction.
 */
export async function changeNetwork(
  db: pg.Pool,
  staff: Staff,
  currency: string,
  blockchainKey: string,
  input: UpdateNetworkInput,
): Promise<AdminNetworkEntity> {
  return withTransaction(db, async (tx) => {
    const before = await lockNetwork(tx, currency, blockchainKey);
    if (!before) throw new AppError(404, [E.networkNotFound]);
    const change: Record<string, boolean | string> = {};
    for (const column of NETWORK_COLUMNS) {
      const value = input[column];
      if (value === undefined) continue;
      // Amounts at the currency's precision: "0.0000001" of a 6-decimal currency is refused, not rounded.
      if (typeof value === 'string') units(value, before.precision, E.networkInvalidAmount);
      change[column] = value;
    }
    await updateNetwork(tx, currency, blockchainKey, change);
    const after = (await lockNetwork(tx, currency, blockchainKey)) as AdminNetworkEntity;
    await recordStaffAction(tx, staff, 'network.update', `network:${currency}:${blockchainKey}`, {
      before,
      after,
    });
    return after;
  });
}
