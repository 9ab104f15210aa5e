import type { CardStatus, HolderStatus } from './card.ts';

/** The card suite's answers, issuing half (trading spec §3): what the card routes of `card.ts` return. */

/** `GET /account/card_fee`: the program's fees and limits (configurable on the server). */
export interface CardFee {
  /** Percent of each top-up, e.g. `1` (spec §9 lists it apart from the fees and limits in USDT). */
  topup_fee: string;
  /** Daily top-up limit, activation and annual fee and the load limit: USDT. */
  topup_limit: string;
  load_limit: string;
  activation_fee: string;
  annual_fee: string;
}

/** `GET /account/cards` item (spec §3): the number masked, `next_charge_on` null while the fee is unpaid. */
export interface CardListItem {
  id: number;
  card_number: string;
  balance: string;
  status: CardStatus;
  /** `YYYY-MM-DD` of the next annual fee; null while the activation fee is unpaid (a Pay button). */
  next_charge_on: string | null;
  /** `MM/YY`. */
  expiry_date: string;
  /** The issuer's fulfilment: ordered, shipped or delivered (null before payment). */
  fulfillment_status: 'ordered' | 'shipped' | 'delivered' | null;
  created_at: string;
}

/** `GET /account/card_details?card_number=`: the card wallet (spec §3 card data). */
export interface CardData {
  card_number: string;
  balance: string;
  usdt_balance: string;
  eur_balance: string;
  total_24h: string;
  /** USDT of top-ups on their way to the card (not settled yet): they count under the load limit too. */
  pending_topups: string;
  expiry_date: string;
  status: CardStatus;
}

/** `GET /account/cards/reveal?card_number=`: the full number, for its owner only. */
export interface CardReveal {
  card_number: string;
  expiry_date: string;
}

/** `GET /account/cardholder_details` (spec §3 card holder/state). */
export interface CardHolderState {
  holder_id: string;
  first_name: string;
  last_name: string;
  /** The document number. */
  id: string;
  country: string;
  /** 2 = Passport, 1 = ID card. */
  idno_type: 1 | 2;
  audit_status: HolderStatus;
  /** `uploaded` when every document image of the id type is there, else `missing`. */
  document_status: 'missing' | 'uploaded';
  selfie_status: 'missing' | 'uploaded';
  /** True when that image is uploaded. */
  id_card_front: boolean;
  id_card_back: boolean;
  passport: boolean;
  selfie: boolean;
  isIncomplete: boolean;
  status: HolderStatus;
  description: string | null;
  /** True once the holder is approved and may order a card. */
  bindSuccess: boolean;
}

/** `GET /account/card_audit`: the review state of the holder. */
export interface CardAudit {
  status: HolderStatus;
  description: string | null;
}

/** Seconds the web app shows a revealed PIN before hiding it again (the answer's `expires_in`). */
export const CARD_PIN_SHOW_SECONDS = 30;
/** Answer of `POST /account/password/retrieval` (sent with `Cache-Control: no-store`). */
export interface CardPinReveal {
  pin: string;
  /** How long to show it, in seconds. */
  expires_in: number;
}

/** `GET /account/card_charges` item (spec §3). */
export interface CardCharge {
  card_number: string;
  created_at: string;
  fee_type: 'activation' | 'annual';
  currency: string;
  fee: string;
  fee_deduction_date: string;
}
