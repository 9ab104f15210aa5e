import { z } from 'zod';

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
  /** The market id is unknown. */
  marketNotFound: 'market.market.doesnt_exist',
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
} as const;

const decimal = (code: string) => z.string({ error: code }).regex(/^(0|[1-9]\d{0,17})(\.\d{1,18})?$/, code);

/** `POST /market/orders` (Peatio): volume, price and stop_price are decimal strings. */
export const placeOrderSchema = z.object({
  market: z
    .string({ error: ORDER_ERRORS.marketNotFound })
    .regex(/^[a-z0-9]{2,20}$/, ORDER_ERRORS.marketNotFound),
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
  /** Optional client order id: the same id twice places one order. */
  client_id: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .optional(),
});
export type PlaceOrderInput = z.infer<typeof placeOrderSchema>;

/** `GET /market/orders` filters. */
export const listOrdersQuery = z.object({
  market: z.string().max(20).optional(),
  state: z
    .union([
      z.enum(['wait', 'pending', 'done', 'cancel', 'reject']),
      z.array(z.enum(['wait', 'pending', 'done', 'cancel', 'reject'])),
    ])
    .optional(),
  ord_type: z.enum(ORD_TYPES).optional(),
  type: z.enum(['buy', 'sell']).optional(),
  order_by: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** `POST /market/orders/cancel`: cancel all, optionally one market and/or side. */
export const cancelAllSchema = z.object({
  market: z.string().max(20).optional(),
  side: z.enum(['buy', 'sell']).optional(),
});
