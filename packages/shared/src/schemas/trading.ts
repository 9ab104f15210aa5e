import { z } from 'zod';
import { parseUnits } from '../money.ts';
import { jsonText } from '../validation.ts';
import { peatioPaging } from './paging.ts';

/** Order types with the Peatio seed names. */
export const ORD_TYPES = [
  'limit',
  'market',
  'stop_loss_limit',
  'take_profit_limit',
  'stop_loss_order',
] as const;
export type OrdType = (typeof ORD_TYPES)[number];

/** Order error codes beyond the engine's (which it returns as they are). */
export const ORDER_ERRORS = {
  /** The market id is unknown (favourites). */
  marketNotFound: 'market.market.doesnt_exist',
  /** Placing an order: the market id is unknown or not open for trading (Peatio's code). */
  marketUnavailable: 'market.market.doesnt_exist_or_not_enabled',
  /** Listing orders: a `state` filter that is not one of the order states (Peatio's code). */
  invalidState: 'market.order.invalid_state',
  /** `volume` is not a positive decimal ("Amount must be greater than {min}"). */
  invalidVolume: 'market.order.invalid_volume',
  /** `volume` has more decimals than the market's amount precision ("Decimal in amount field should be less than or equal to {n}"). */
  volumePrecision: 'market.order.invalid_volume_precision',
  /** `price` or `stop_price` is not a positive decimal. */
  invalidPrice: 'market.order.invalid_price',
  /** `price` has more decimals than the market's price precision ("Decimal in price field should be less than or equal to {n}"). */
  pricePrecision: 'market.order.invalid_price_precision',
  /** `side` is neither buy nor sell. */
  invalidSide: 'market.order.invalid_side',
  /** `ord_type` is not one of the five order types. */
  invalidType: 'market.order.invalid_type',
  /** No such order of this user. */
  orderNotFound: 'market.order.doesnt_exist',
  /** `volume` is zero ("Amount must be greater than {min}", as the engine says it). */
  nonPositiveVolume: 'market.order.non_positive_volume',
  /** `price` is zero. */
  nonPositivePrice: 'market.order.non_positive_price',
  /** A limit-priced order (`limit`, `stop_loss_limit`, `take_profit_limit`) has no `price`. */
  missingPrice: 'market.order.missing_price',
  /** A `market` or `stop_loss_order` order carries a `price`. */
  marketOrderPrice: 'market.order.market_order_price',
  /** A stop order (`stop_loss_limit`, `take_profit_limit`, `stop_loss_order`) has no `stop_price`. */
  missingStopPrice: 'market.order.missing_stop_price',
  /** `stop_price` is zero. */
  nonPositiveStopPrice: 'market.order.non_positive_stop_price',
  /** `stop_price` on a `limit` or `market` order. */
  unexpectedStopPrice: 'market.order.unexpected_stop_price',
  /** `time_in_force` is not one of `gtc`, `ioc`, `fok`. */
  invalidTimeInForce: 'market.order.invalid_time_in_force',
  /** `time_in_force` on a `market` order (it fills what the book has and cancels the rest: there is none to choose). */
  marketOrderTimeInForce: 'market.order.market_order_time_in_force',
  /** `time_in_force` `ioc` or `fok` on a stop order (stop orders wait, so they are `gtc` only). */
  stopOrderTimeInForce: 'market.order.stop_order_time_in_force',
  /** `post_only` is not a boolean. */
  invalidPostOnly: 'market.order.invalid_post_only',
  /** `post_only` on an order that is not a `limit` order. */
  postOnlyNotLimit: 'market.order.post_only_not_limit',
  /** `post_only` with `time_in_force` `ioc` or `fok` (a post-only order must be able to rest in the book). */
  postOnlyTimeInForce: 'market.order.post_only_time_in_force',
} as const;

/** Codes of the public market data calls (Peatio's). */
export const MARKET_DATA_ERRORS = {
  /** The market in the path is unknown or hidden (422, as Peatio). */
  marketNotFound: 'public.market.doesnt_exist',
  /** k-line: `period` is not one of 1, 5, 15, 30, 60, 120, 240, 360, 720, 1440, 4320, 10080 minutes (422). */
  invalidPeriod: 'public.k_line.invalid_period',
  /** `GET /public/currencies/{id}`: the currency is unknown or not visible (422, as Peatio 2.6's `values` check). */
  currencyNotFound: 'public.currency.doesnt_exist',
  /** `GET /public/currencies`: `type` is neither coin nor fiat (422, as Peatio). */
  currencyTypeInvalid: 'public.currency.invalid_type',
  /** `GET /public/currencies`: `search` is neither `search[code]`/`search[name]` nor a JSON object of them (422). */
  currencySearchInvalid: 'public.currency.invalid_search',
  /** `GET /public/withdraw_limits`: `ordering` is neither asc nor desc (422, as Peatio). */
  invalidOrdering: 'pagination.invalid_ordering',
} as const;

/** Order types that carry a limit `price`. */
export const PRICED_ORD_TYPES: readonly OrdType[] = ['limit', 'stop_loss_limit', 'take_profit_limit'];
/** Order types that wait for a `stop_price` (stop-limit, take-profit limit, stop-market). */
export const STOP_ORD_TYPES: readonly OrdType[] = ['stop_loss_limit', 'take_profit_limit', 'stop_loss_order'];

/**
 * Time in force of a limit order: `gtc` (good till cancelled, the default: the rest waits in the book), `ioc`
 * (immediate or cancel: what does not fill at once is cancelled), `fok` (fill or kill: all of it at once, or
 * nothing and the order is cancelled).
 */
export const TIME_IN_FORCE = ['gtc', 'ioc', 'fok'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];

const decimal = (code: string) => z.string({ error: code }).regex(/^(0|[1-9]\d{0,17})(\.\d{1,18})?$/, code);

/** `POST /market/orders` (Peatio): volume, price and stop_price are decimal strings. */
export const placeOrderSchema = z.object({
  market: z
    .string({ error: ORDER_ERRORS.marketUnavailable })
    .regex(/^[a-z0-9]{2,20}$/, ORDER_ERRORS.marketUnavailable),
  side: z.enum(['buy', 'sell'], { error: ORDER_ERRORS.invalidSide }),
  volume: z.union([
    decimal(ORDER_ERRORS.invalidVolume),
    z.number().transform(String).pipe(decimal(ORDER_ERRORS.invalidVolume)),
  ]),
  ord_type: z.enum(ORD_TYPES, { error: ORDER_ERRORS.invalidType }).default('limit'),
  price: z
    .union([
      decimal(ORDER_ERRORS.invalidPrice),
      z.number().transform(String).pipe(decimal(ORDER_ERRORS.invalidPrice)),
    ])
    .optional(),
  stop_price: z
    .union([
      decimal(ORDER_ERRORS.invalidPrice),
      z.number().transform(String).pipe(decimal(ORDER_ERRORS.invalidPrice)),
    ])
    .optional(),
  /** Limit orders: {@link TIME_IN_FORCE}; absent means `gtc`. Stop orders take `gtc` only, market orders none. */
  time_in_force: z.enum(TIME_IN_FORCE, { error: ORDER_ERRORS.invalidTimeInForce }).optional(),
  /**
   * Limit orders with `gtc`: the order only adds liquidity; one that would take on arrival is cancelled untouched
   * (the answer says `cancel_reason: "post_only"`). A boolean, or its text `"true"`/`"false"` as form clients send.
   */
  post_only: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
      error: ORDER_ERRORS.invalidPostOnly,
    })
    .optional(),
  /** Optional client order id: the same id twice places one order. */
  client_id: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .optional(),
});
export type PlaceOrderInput = z.infer<typeof placeOrderSchema>;

/** The states of an order (Peatio's). */
export const ORDER_STATES = ['wait', 'pending', 'done', 'cancel', 'reject'] as const;

/** `GET /market/orders` filters. */
export const listOrdersQuery = z.object({
  market: z.string().max(20).optional(),
  state: z
    .union([z.enum(ORDER_STATES), z.array(z.enum(ORDER_STATES))], { error: ORDER_ERRORS.invalidState })
    .optional(),
  ord_type: z.enum(ORD_TYPES).optional(),
  type: z.enum(['buy', 'sell']).optional(),
  order_by: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

const paging = peatioPaging;

const searchText = z.string().max(40).optional();
/** `search` as a query gives it: `search[code]=bt` (an object) or Peatio's JSON text `{"code":"bt"}`. */
const currencySearch = z.preprocess(
  jsonText,
  z.object({ code: searchText, name: searchText }, { error: MARKET_DATA_ERRORS.currencySearchInvalid }),
);

/**
 * `GET /public/currencies`: Peatio's paging, `type` (coin or fiat) and `search` (code or name containing the
 * text, either matching).
 */
export const currencyListQuery = z.object({
  ...peatioPaging,
  type: z.enum(['coin', 'fiat'], { error: MARKET_DATA_ERRORS.currencyTypeInvalid }).optional(),
  search: currencySearch.optional(),
});
export type CurrencyListQuery = z.infer<typeof currencyListQuery>;

/** `GET /public/withdraw_limits`: Peatio's filters, paging and ordering. */
export const withdrawLimitListQuery = z.object({
  ...peatioPaging,
  group: z.string().max(32).trim().toLowerCase().optional(),
  kyc_level: z.coerce.number().int().min(0).max(3).optional(),
  currency: z.string().max(10).toLowerCase().optional(),
  ordering: z.enum(['asc', 'desc'], { error: MARKET_DATA_ERRORS.invalidOrdering }).default('asc'),
  order_by: z.enum(['id', 'kyc_level', 'currency', 'updated_at']).default('id'),
});
export type WithdrawLimitListQuery = z.infer<typeof withdrawLimitListQuery>;

/** `GET /public/markets`: Peatio's paging and its filters by base and quote currency. */
export const publicMarketsQuery = z.object({
  ...paging,
  base_unit: z.string().max(20).optional(),
  quote_unit: z.string().max(20).optional(),
});

/** `GET /account/balances`: Peatio's paging, and `nonzero` to leave out empty accounts. */
export const balancesQuery = z.object({
  ...paging,
  nonzero: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
});

/** `POST /market/orders/cancel`: cancel all, optionally one market and/or side. */
export const cancelAllSchema = z.object({
  market: z.string().max(20).optional(),
  side: z.enum(['buy', 'sell']).optional(),
});

/** A market's order rules as `GET /public/markets` gives them (docs/trading.md#validation). */
export interface OrderRules {
  /** Smallest volume, a decimal string ("Amount must be greater than {min}"). */
  min_amount: string;
  amount_precision: number;
  price_precision: number;
}

/**
 * A decimal field against a precision: the precision code when it has too many decimals, the zero code when
 * it is zero, else its units.
 */
function checkDecimal(
  text: string,
  precision: number,
  codes: { precision: string; zero: string },
): { code: string } | { units: bigint } {
  const parsed = parseUnits(text, precision);
  if (!parsed.ok) return { code: parsed.error === 'too_precise' ? codes.precision : codes.zero };
  return parsed.units === 0n ? { code: codes.zero } : { units: parsed.units };
}

/** One problem of an order against its market's rules, on its field. */
export interface OrderIssue {
  path: 'volume' | 'price' | 'stop_price' | 'time_in_force' | 'post_only';
  code: string;
}

/**
 * An order (already through {@link placeOrderSchema}) against one market's rules, in field order: volume
 * precision and minimum, price precision and presence by order type, stop price likewise, then the order options
 * (time in force and post-only) against the order type, with the engine's codes. The server takes the
 * first issue as its answer; the engine keeps the price range and balance checks.
 */
export function orderRuleIssues(order: PlaceOrderInput, rules: OrderRules): OrderIssue[] {
  const issues: OrderIssue[] = [];
  const fail = (path: OrderIssue['path'], code: string) => issues.push({ path, code });

  const volume = checkDecimal(order.volume, rules.amount_precision, {
    precision: ORDER_ERRORS.volumePrecision,
    zero: ORDER_ERRORS.nonPositiveVolume,
  });
  const min = parseUnits(rules.min_amount, rules.amount_precision);
  if ('code' in volume) fail('volume', volume.code);
  else if (min.ok && volume.units < min.units) fail('volume', ORDER_ERRORS.invalidVolume);

  // A price field: required by some order types, refused by the others, and then a positive price of the
  // market's precision.
  const priceField = (
    path: 'price' | 'stop_price',
    text: string | undefined,
    wanted: boolean,
    codes: { missing: string; unexpected: string; zero: string },
  ) => {
    if (text === undefined) {
      if (wanted) fail(path, codes.missing);
    } else if (!wanted) fail(path, codes.unexpected);
    else {
      const price = checkDecimal(text, rules.price_precision, {
        precision: ORDER_ERRORS.pricePrecision,
        zero: codes.zero,
      });
      if ('code' in price) fail(path, price.code);
    }
  };
  priceField('price', order.price, PRICED_ORD_TYPES.includes(order.ord_type), {
    missing: ORDER_ERRORS.missingPrice,
    unexpected: ORDER_ERRORS.marketOrderPrice,
    zero: ORDER_ERRORS.nonPositivePrice,
  });
  priceField('stop_price', order.stop_price, STOP_ORD_TYPES.includes(order.ord_type), {
    missing: ORDER_ERRORS.missingStopPrice,
    unexpected: ORDER_ERRORS.unexpectedStopPrice,
    zero: ORDER_ERRORS.nonPositiveStopPrice,
  });

  const tif = order.time_in_force;
  if (tif !== undefined && order.ord_type === 'market')
    fail('time_in_force', ORDER_ERRORS.marketOrderTimeInForce);
  else if (tif !== undefined && tif !== 'gtc' && order.ord_type !== 'limit')
    fail('time_in_force', ORDER_ERRORS.stopOrderTimeInForce);
  if (order.post_only === true) {
    if (order.ord_type !== 'limit') fail('post_only', ORDER_ERRORS.postOnlyNotLimit);
    else if (tif === 'ioc' || tif === 'fok') fail('post_only', ORDER_ERRORS.postOnlyTimeInForce);
  }
  return issues;
}

/** {@link placeOrderSchema} plus one market's rules ({@link orderRuleIssues}), each issue on its field: the web form's schema. */
export function marketOrderSchema(rules: OrderRules) {
  return placeOrderSchema.superRefine((order, ctx) => {
    for (const issue of orderRuleIssues(order, rules))
      ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.code });
  });
}
