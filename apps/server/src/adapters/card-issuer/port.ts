/**
 * What the exchange needs from a card issuer-processor (docs/platform.md#providers: card issuer port), shaped on Marqeta's
 * Core API: cardholders are `users`, their identity check is a `kyc` request, cards are `cards` whose state
 * moves by `cardtransitions`, a replacement is a new card created from the old one, and a PIN is revealed
 * with a control token. Field names follow Marqeta's JSON (snake_case) so the HTTP adapter maps nothing.
 */
export interface CardIssuer {
  /** `simulator` (built in, the default) or `marqeta` (the real Core API). */
  readonly kind: 'simulator' | 'marqeta';
  /** `POST /users`: the cardholder; creating a token that exists returns the existing user. */
  createUser(input: IssuerUserInput): Promise<IssuerUser>;
  /**
   * Files a document image with the user. Marqeta's `/kyc` takes no documents: this is our simulator's own
   * extension (`POST /users/{token}/documents`), which its reviewer looks at. Against the real Marqeta the
   * images stay with us and this returns null.
   */
  uploadDocument(userToken: string, document: IssuerDocument): Promise<{ token: string } | null>;
  /** `POST /kyc`: asks for the user's identity check; the outcome may come later by a `kycs` webhook. */
  requestKyc(input: { token: string; user_token: string }): Promise<IssuerKyc>;
  /** `POST /cards?show_pan=true`: orders a card (or, with `new_pan_from_card_token`, its replacement). */
  createCard(input: IssuerCardInput): Promise<IssuerCard>;
  /** `GET /cards/{token}`, with the full number only when `showPan`; null when the issuer has no such card. */
  getCard(token: string, showPan?: boolean): Promise<IssuerCard | null>;
  /** `POST /cardtransitions`: moves a card to another state. */
  transitionCard(input: IssuerTransitionInput): Promise<IssuerTransition>;
  /** `POST /pins/controltoken` (REVEAL_PIN) then `POST /pins/reveal`: the card's PIN, never to be stored. */
  revealPin(cardToken: string): Promise<string>;
  /**
   * `POST /gpaorders`: funds the card with a top-up; pending until the issuer settles it, reported by a
   * `transactions` webhook of type `gpa.credit` (state COMPLETION, or DECLINED when refused). The token is ours:
   * the same token again is the same order.
   */
  createGpaOrder(input: IssuerGpaOrderInput): Promise<IssuerGpaOrder>;
  /**
   * `GET /transactions?card_token=…`: the card's transactions between two UTC dates (inclusive), newest first,
   * `settled` (final: completed, declined, reversed) or not (pending authorisations); `total` is the simulator's
   * extension.
   */
  listTransactions(query: IssuerTransactionQuery): Promise<IssuerTransactionPage>;
}

export interface IssuerTransactionQuery {
  card_token: string;
  start_date: string;
  end_date: string;
  settled: boolean;
  start_index: number;
  count: number;
}

/** A card transaction: amounts as decimal strings; `type_code` is the spec's code (simulator extension). */
export interface IssuerTransaction {
  token: string;
  type: string;
  type_code: number;
  state: string;
  /** USDT, signed (negative leaves the card). */
  amount: string;
  currency_code: string;
  card_acceptor?: { name?: string | null };
  currency_conversion?: {
    network?: { original_amount: string; original_currency_code: string; conversion_rate: string };
  };
  preceding_related_transaction_token?: string | null;
  /** A `gpa.credit` (a top-up): the funding order it settles, whose token is our top-up's. */
  gpa_order?: { token: string } | null;
  created_time: string;
}

export interface IssuerTransactionPage {
  count: number;
  start_index: number;
  is_more: boolean;
  total: number;
  data: IssuerTransaction[];
}

/** A funding order; `amount` a decimal string (never a JS number), `card_token` the card funded. */
export interface IssuerGpaOrderInput {
  token: string;
  user_token: string;
  card_token: string;
  amount: string;
  currency_code: string;
  funding_source_token: string;
}

export interface IssuerGpaOrder {
  token: string;
  state: 'PENDING' | 'COMPLETION' | 'DECLINED';
  amount: string;
  created_time?: string;
}

/** A cardholder as `POST /users` takes it (the fields used here). */
export interface IssuerUserInput {
  token: string;
  first_name: string;
  last_name: string;
  email?: string;
  phone?: string;
  address1?: string;
  city?: string;
  postal_code?: string;
  country: string;
  identifications: { type: 'PASSPORT' | 'NAT_ID'; value: string }[];
}

export interface IssuerUser {
  token: string;
  first_name?: string;
  last_name?: string;
  status?: string;
  created_time?: string;
}

export interface IssuerDocument {
  doc_type: string;
  mime_type: string;
  content: Buffer;
}

/** Marqeta's KYC result: `success` or `failure` with codes; our simulator adds `pending` (a reviewer decides). */
export interface IssuerKyc {
  token: string;
  user_token: string;
  result: { status: 'pending' | 'success' | 'failure'; codes?: { code: string; message?: string }[] };
  created_time?: string;
}

/** Recipient address of a physical card (Marqeta's `fulfillment.shipping.recipient_address`). */
export interface IssuerAddress {
  first_name: string;
  last_name: string;
  address1: string;
  city: string;
  postal_code: string;
  country: string;
}

export interface IssuerCardInput {
  token: string;
  user_token: string;
  card_product_token?: string;
  fulfillment: { shipping: { recipient_address: IssuerAddress } };
  /** A new number for a card that is replaced (Marqeta's lost/stolen reissue). */
  new_pan_from_card_token?: string;
}

export type IssuerCardState = 'UNACTIVATED' | 'ACTIVE' | 'SUSPENDED' | 'TERMINATED';
export type IssuerFulfillment = 'ISSUED' | 'ORDERED' | 'SHIPPED' | 'DELIVERED';

export interface IssuerCard {
  token: string;
  user_token: string;
  card_product_token?: string;
  /** The full number: only when asked with `show_pan=true`. */
  pan?: string;
  last_four: string;
  /** `MMYY`. */
  expiration: string;
  state: IssuerCardState;
  fulfillment_status: IssuerFulfillment;
  created_time?: string;
}

export interface IssuerTransitionInput {
  card_token: string;
  state: IssuerCardState;
  channel: 'API';
  reason_code: ReasonCode;
  reason?: string;
}

export interface IssuerTransition {
  token: string;
  card_token: string;
  state: IssuerCardState;
  fulfillment_status?: IssuerFulfillment;
  type?: string;
  created_time?: string;
}

/** Marqeta's card transition reason codes used here. */
export const REASON = {
  /** 00: object activated for the first time. */
  firstActivation: '00',
  /** 01: requested by you (the cardholder's own unblock, or the old card of a replacement). */
  requested: '01',
  /** 10: card was reported lost. */
  reportedLost: '10',
  /** 15: initiated by issuer (suspended for an unpaid fee, and reinstated once paid). */
  issuer: '15',
} as const;
export type ReasonCode = (typeof REASON)[keyof typeof REASON];

/** An issuer call that failed: 504 when it timed out, otherwise the issuer's status (502 when unreachable). */
export class CardIssuerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One asynchronous outcome the issuer reports by webhook (Marqeta's event notifications). */
export type IssuerEvent =
  | { kind: 'kyc'; token: string; user_token: string; result: IssuerKyc['result']; payload: unknown }
  | {
      kind: 'cardtransition';
      token: string;
      card_token: string;
      state: IssuerCardState;
      fulfillment_status: IssuerFulfillment;
      type: string;
      payload: unknown;
    };
