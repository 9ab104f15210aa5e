import { z } from 'zod';
import { CARD_STATUSES, HOLDER_STATUSES, ID_TYPES } from '../schemas/card.ts';
import { decimal, isoDate, isoTime } from './common.ts';

/** The card suite's answers (docs/cards.md#data): holders, cards, top-ups, the statement, fees and charges. */

const cardStatus = z.enum(CARD_STATUSES);
const holderStatus = z.enum(HOLDER_STATUSES);

/** `GET /account/cardholder/check_document?country=`: may this country apply, and with which documents. */
export const checkDocumentResponse = z.object({
  country: z.string(),
  allowed: z.boolean(),
  id_types: z.array(z.enum(ID_TYPES)),
});
export type CheckDocumentResult = z.infer<typeof checkDocumentResponse>;

/** `GET /account/card_fee`: the program's fees and limits (configurable on the server). */
export const cardFeeResponse = z.object({
  /** Percent of each top-up, e.g. `1` (docs/cards.md#constants lists it apart from the fees and limits in USDT). */
  topup_fee: decimal,
  /** Daily top-up limit, activation and annual fee and the load limit: USDT. */
  topup_limit: decimal,
  load_limit: decimal,
  activation_fee: decimal,
  annual_fee: decimal,
});
export type CardFee = z.infer<typeof cardFeeResponse>;

/** `GET /account/cards` item (docs/cards.md#data): the number masked, `next_charge_on` null while the fee is unpaid. */
export const cardListItemResponse = z
  .object({
    id: z.number().int(),
    card_number: z.string(),
    balance: decimal,
    status: cardStatus,
    /** `YYYY-MM-DD` of the next annual fee; null while the activation fee is unpaid (a Pay button). */
    next_charge_on: isoDate.nullable(),
    /** `MM/YY`. */
    expiry_date: z.string(),
    /** The issuer's fulfilment: ordered, shipped or delivered (null before payment). */
    fulfillment_status: z.enum(['ordered', 'shipped', 'delivered']).nullable(),
    created_at: isoTime,
  })
  .meta({ id: 'Card' });
export type CardListItem = z.infer<typeof cardListItemResponse>;

/** `GET /account/card_details?card_number=`: the card wallet (docs/cards.md#data card data). */
export const cardDataResponse = z.object({
  card_number: z.string(),
  balance: decimal,
  usdt_balance: decimal,
  eur_balance: decimal,
  total_24h: decimal,
  /** USDT of top-ups on their way to the card (not settled yet): they count under the load limit too. */
  pending_topups: decimal,
  expiry_date: z.string(),
  status: cardStatus,
});
export type CardData = z.infer<typeof cardDataResponse>;

/** `GET /account/cards/reveal?card_number=`: the full number, for its owner only. */
export const cardRevealResponse = z.object({ card_number: z.string(), expiry_date: z.string() });
export type CardReveal = z.infer<typeof cardRevealResponse>;

/** `GET /account/cardholder_details` (docs/cards.md#data card holder/state). */
export const cardHolderStateResponse = z
  .object({
    holder_id: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    /** The document number. */
    id: z.string(),
    country: z.string(),
    /** 2 = Passport, 1 = ID card. */
    idno_type: z.union([z.literal(1), z.literal(2)]),
    audit_status: holderStatus,
    /** `uploaded` when every document image of the id type is there, else `missing`. */
    document_status: z.enum(['missing', 'uploaded']),
    selfie_status: z.enum(['missing', 'uploaded']),
    /** True when that image is uploaded. */
    id_card_front: z.boolean(),
    id_card_back: z.boolean(),
    passport: z.boolean(),
    selfie: z.boolean(),
    isIncomplete: z.boolean(),
    status: holderStatus,
    description: z.string().nullable(),
    /** True once the holder is approved and may order a card. */
    bindSuccess: z.boolean(),
  })
  .meta({ id: 'CardHolder' });
export type CardHolderState = z.infer<typeof cardHolderStateResponse>;

/** `GET /account/card_audit`: the review state of the holder. */
export const cardAuditResponse = z.object({ status: holderStatus, description: z.string().nullable() });
export type CardAudit = z.infer<typeof cardAuditResponse>;

/** Seconds the web app shows a revealed PIN before hiding it again (the answer's `expires_in`). */
export const CARD_PIN_SHOW_SECONDS = 30;
/** Answer of `POST /account/password/retrieval` (sent with `Cache-Control: no-store`). */
export const cardPinRevealResponse = z.object({
  pin: z.string(),
  /** How long to show it, in seconds. */
  expires_in: z.number().int(),
});
export type CardPinReveal = z.infer<typeof cardPinRevealResponse>;

/** `GET /account/card_charges` item (docs/cards.md#data). */
export const cardChargeResponse = z
  .object({
    card_number: z.string(),
    created_at: isoTime,
    fee_type: z.enum(['activation', 'annual']),
    currency: z.string(),
    fee: decimal,
    fee_deduction_date: z.string(),
  })
  .meta({ id: 'CardCharge' });
export type CardCharge = z.infer<typeof cardChargeResponse>;

/** Answer of `price/conversion`: both sides exact, the rate (EUR per USDT) and the conversion fee in USDT. */
export const priceConversionResponse = z.object({
  currency: z.enum(['usdt', 'euro']),
  amount: decimal,
  usdt_amount: decimal,
  eur_amount: decimal,
  /** EUR per 1 USDT. */
  rate: decimal,
  /** The card's conversion fee, in USDT. */
  fee: decimal,
});
export type PriceConversion = z.infer<typeof priceConversionResponse>;

/** A top-up in the history (docs/cards.md#data); `aasm_state` `failed` is shown as Processing (docs/cards.md#states). */
export const topupItemResponse = z
  .object({
    order_no: z.string(),
    created_at: isoTime,
    /**
     * `processing` until the issuer settles it, then `success`; `refunded` once the amount of a top-up the issuer
     * refused is back in the spot wallet (until then `processing`).
     */
    topup_status: z.enum(['processing', 'success', 'refunded']),
    /** `failed` for a top-up the issuer refused, also after its refund (the spec's state, shown as Processing). */
    aasm_state: z.enum(['submitted', 'settled', 'failed']),
    /** What reached the card, in USDT. */
    amount: decimal,
    currency: z.literal('usdt'),
    /** What left the spot wallet: amount plus the top-up fee. */
    usdt_amount: decimal,
    fee: decimal,
  })
  .meta({ id: 'Topup' });
export type TopupItem = z.infer<typeof topupItemResponse>;

/** Answer of `list/topup_transactions` (docs/cards.md#data `totalItem`). */
export const topupListResponse = z.object({ items: z.array(topupItemResponse), totalItem: z.number().int() });
export type TopupList = z.infer<typeof topupListResponse>;

/** A statement row (docs/cards.md#data statement transaction), with what the detail dialog shows (docs/cards.md#screens). */
export const statementTransactionResponse = z
  .object({
    tradeId: z.string(),
    /** Masked. */
    cardNo: z.string(),
    /** The statement's currency: USDT or EUR. */
    currency: z.enum(['USDT', 'EUR']),
    /** ISO 8601. */
    businessDate: isoTime,
    /** In the statement's currency; negative for money leaving the card. */
    amount: decimal,
    fee: decimal,
    /** settled, pending, declined, reversed. */
    tradeStatus: z.string(),
    /** One of the spec's transaction type codes. */
    tradeType: z.number().int(),
    /** Merchant or reason. */
    remark: z.string(),
    /** The transaction's own currency and amount (e.g. EUR at the merchant). */
    currencyTxn: z.string(),
    txnAmount: decimal,
    /** What the card was billed, in USDT, and the rate used (EUR per USDT). */
    billAmount: decimal,
    exchangeRate: decimal,
  })
  .meta({ id: 'StatementTransaction' });
export type StatementTransaction = z.infer<typeof statementTransactionResponse>;

/** Answer of `card_transaction` (docs/cards.md#data `totalItem`). */
export const statementPageResponse = z.object({
  items: z.array(statementTransactionResponse),
  totalItem: z.number().int(),
});
export type StatementPage = z.infer<typeof statementPageResponse>;

/** The card issuer's webhook answer: how many events were applied, seen before or ignored. */
export const cardWebhookResultResponse = z.object({
  status: z.literal('ok'),
  applied: z.number().int(),
  duplicates: z.number().int(),
  ignored: z.number().int(),
});
