import { z } from 'zod';

/**
 * The console's markets and currencies (`/api/v2/admin/markets`, `/api/v2/admin/currencies`, permission
 * `markets.manage`): add a market, enable or disable trading, deposits and withdrawals, change fees and minimums.
 * Amounts and fees are decimal strings, parsed to integer units at the market's or currency's precision on the
 * server; excess precision is refused, never rounded.
 */
export const ADMIN_MARKET_ERRORS = {
  /** No market with this id (404). */
  notFound: 'admin.market.not_found',
  /** A market with this id already exists (422). */
  exists: 'admin.market.exists',
  /** The market id is not 4 to 20 lowercase letters and digits (422). */
  invalidId: 'admin.market.invalid_id',
  /** The base or quote currency is unknown, or both are the same (422). */
  invalidCurrency: 'admin.market.invalid_currency',
  /**
   * A precision is not a whole number from 0 to 18, or price + amount precision exceed the quote currency's
   * precision, or the amount precision exceeds the base currency's (422).
   */
  invalidPrecision: 'admin.market.invalid_precision',
  /**
   * A price bound is not a positive decimal within the price precision, or the maximum (0 = none) is below the
   * minimum (422).
   */
  invalidPrice: 'admin.market.invalid_price',
  /** The minimum order amount is not a positive decimal within the amount precision (422). */
  invalidAmount: 'admin.market.invalid_amount',
  /** The state is neither `enabled` nor `disabled` (422). */
  invalidState: 'admin.market.invalid_state',
  /** A fee is not a decimal from 0 to below 1 with at most 6 decimals (0.001 = 0.1%) (422). */
  invalidFee: 'admin.market.invalid_fee',
  /** The exchange core refused the change (it breaks a market rule the checks above missed) (422). */
  rejected: 'admin.market.rejected',
  /** The request changes nothing: give at least one field (422). */
  nothingToChange: 'admin.change.empty',
  /** The currency has no network with this blockchain key (404). */
  networkNotFound: 'admin.network.not_found',
  /** A network amount or fee is not a non-negative decimal within the currency's precision (422). */
  networkInvalidAmount: 'admin.network.invalid_amount',
} as const;

const E = ADMIN_MARKET_ERRORS;

/** A non-negative decimal string of at most 18 integer and 18 fraction digits (fits `numeric(36, 18)`). */
const decimal = (code: string) => z.string({ error: code }).regex(/^(0|[1-9]\d{0,17})(\.\d{1,18})?$/, code);
/** A fee rate in [0, 1) with at most 6 decimals: the `trading_fees` column and the engine's parts per million. */
const fee = z.string({ error: E.invalidFee }).regex(/^0(\.\d{1,6})?$/, E.invalidFee);
const precision = z
  .number({ error: E.invalidPrecision })
  .int(E.invalidPrecision)
  .min(0, E.invalidPrecision)
  .max(18, E.invalidPrecision);
const currency = z.string({ error: E.invalidCurrency }).regex(/^[a-z0-9]{2,10}$/, E.invalidCurrency);
const state = z.enum(['enabled', 'disabled'], { error: E.invalidState });

/** `POST /markets`: a new market, added through the exchange core (tradable at once when `enabled`). */
export const addMarketSchema = z.object({
  id: z.string({ error: E.invalidId }).regex(/^[a-z0-9]{4,20}$/, E.invalidId),
  base_unit: currency,
  quote_unit: currency,
  amount_precision: precision,
  price_precision: precision,
  min_price: decimal(E.invalidPrice),
  /** `0`: no upper bound. */
  max_price: decimal(E.invalidPrice).default('0'),
  min_amount: decimal(E.invalidAmount),
  state: state.default('enabled'),
  maker_fee: fee,
  taker_fee: fee,
});
export type AddMarketInput = z.infer<typeof addMarketSchema>;

/** `POST /markets/:id`: any of state, bounds and fees; what is left out stays. */
export const updateMarketSchema = z
  .object({
    state: state.optional(),
    min_price: decimal(E.invalidPrice).optional(),
    max_price: decimal(E.invalidPrice).optional(),
    min_amount: decimal(E.invalidAmount).optional(),
    maker_fee: fee.optional(),
    taker_fee: fee.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), E.nothingToChange);
export type UpdateMarketInput = z.infer<typeof updateMarketSchema>;

/** `POST /currencies/:currency/networks/:blockchain_key`: switches, fees and minimums of one network. */
export const updateNetworkSchema = z
  .object({
    deposit_enabled: z.boolean({ error: E.networkInvalidAmount }).optional(),
    withdraw_enabled: z.boolean({ error: E.networkInvalidAmount }).optional(),
    withdraw_fee: decimal(E.networkInvalidAmount).optional(),
    deposit_fee: decimal(E.networkInvalidAmount).optional(),
    min_withdraw_amount: decimal(E.networkInvalidAmount).optional(),
    min_deposit_amount: decimal(E.networkInvalidAmount).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), E.nothingToChange);
export type UpdateNetworkInput = z.infer<typeof updateNetworkSchema>;
