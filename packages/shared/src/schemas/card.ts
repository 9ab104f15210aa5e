import { z } from 'zod';
import { totpField } from './account-security.ts';

/**
 * The card suite's wire contract, issuing half (docs/cards.md): error codes, request schemas, response
 * shapes and constants. Paths are under the Peatio prefix (`/api/v2/peatio`), e.g. `POST /account/cardholder`.
 */

/** Card error codes. The web app maps each to its message in docs/cards.md#validation, #errors; a few depend on the id type. */
export const CARD_ERRORS = {
  /** The user is below level 3 (identity verified): cards need it (403; the web app prompts to settings). */
  levelRequired: 'account.card.level_required',
  /** The holder's country may not apply ("You are not allowed to apply for card"). */
  countryNotAllowed: 'account.card.country_not_allowed',
  /** The country is missing or not a 2-letter code (422). */
  countryInvalid: 'account.card.invalid_country',
  /** The user already has a card holder: the wizard moves to the right step (422). */
  cardholderExists: 'account.member.cardholder_already_exist',
  /** Another holder has this document number ("{Passport|Id} number already exist") (422). */
  idnoExists: 'account.member.idno_already_exist',
  /** `id_type` is not `id_card` or `passport`, or the country allows passports only (422). */
  idTypeInvalid: 'account.card.invalid_id_type',
  /** Document number missing ("Please enter a valid id number" / "... passport number") (422). */
  idNumberRequired: 'account.card.missing_id_number',
  /** Document number under 6 characters ("Id number must be 6 character long" / passport variant) (422). */
  idNumberTooShort: 'account.card.id_number_too_short',
  /** Document number over 32 (id card) or 12 (passport) characters (422). */
  idNumberTooLong: 'account.card.id_number_too_long',
  /** Document number with a character other than a letter, digit or underscore (422). */
  idNumberInvalid: 'account.card.invalid_id_number',
  /** No card holder yet: apply first (404). */
  holderNotFound: 'account.card.holder_not_found',
  /** `doc_type` is not one the holder's id type needs (422). */
  documentTypeInvalid: 'account.card.invalid_document_type',
  /** An identity document image is missing ("Please upload your document") (422). */
  documentRequired: 'account.card.missing_document',
  /** The selfie is missing ("Please upload your selfie") (422). */
  selfieRequired: 'account.card.missing_selfie',
  /** An image of 10 MB or more ("Image must smaller than 10MB!") (422). */
  documentTooLarge: 'account.card.document_too_large',
  /** An upload that is not a JPEG or PNG image by its content (422). */
  documentFormatInvalid: 'account.card.invalid_document_format',
  /** Documents can no longer change: the holder is under review or approved (422). */
  holderLocked: 'account.card.holder_under_review',
  /** The holder is not approved yet: no card can be ordered (422). */
  holderNotApproved: 'account.card.holder_not_approved',
  /** The user has three cards already (422). */
  maxCards: 'account.card.max_cards_reached',
  /** Shipping address, city or country missing ("This field is required") (422). */
  shippingFieldRequired: 'account.card.missing_shipping_field',
  /** Shipping postcode: letters, digits, underscore, at most 6 (422). */
  postCodeInvalid: 'account.card.invalid_post_code',
  /** The shipping confirmation box was not ticked (422). */
  confirmationRequired: 'account.card.missing_confirmation',
  /** Less USDT than activation plus annual fee ("Ensure sufficient balance in your USDT wallet to apply for the card.") (422). */
  feeBalanceInsufficient: 'account.card.insufficient_fee_balance',
  /** The card's fee is already paid (422). */
  alreadyPaid: 'account.card.already_paid',
  /** No card chosen ("Please select card no.") (422). */
  cardNumberRequired: 'account.card.missing_card_number',
  /** Not a 16-digit number passing the Luhn check, or not one of the user's cards to activate ("Please fill correct account no.") (422). */
  cardNumberInvalid: 'account.card.invalid_card_number',
  /** The card is already blocked ("Already blocked card") (422). */
  alreadyBlocked: 'account.card.already_blocked',
  /** The card is not blocked ("Already unblocked card") (422). */
  alreadyUnblocked: 'account.card.already_unblocked',
  /** A replacement is under way ("Card replacement in processing") (422). */
  replacementInProgress: 'account.card.replacement_in_progress',
  /** The card is blocked ("Your card is blocked") (422). */
  cardBlocked: 'account.card.blocked',
  /** The card is not activated yet, or its fee is unpaid (422). */
  cardNotActive: 'account.card.not_active',
  /** The card is already activated (422). */
  alreadyActive: 'account.card.already_active',
  /** The fee must be paid before the card can be activated (422). */
  feeUnpaid: 'account.card.fee_unpaid',
  /** Too many wrong authenticator codes for the PIN lately: wait before trying again (429). */
  pinTooManyAttempts: 'account.card.pin_too_many_attempts',
  /** The card issuer did not answer in time ("Connection timeout") (504). */
  issuerTimeout: 'account.card.issuer_timeout',
  /** The card issuer refused or failed the call (502). */
  issuerUnavailable: 'account.card.issuer_unavailable',
} as const;

/** Countries whose residents may not apply (docs/cards.md#validation). */
export const CARD_BLOCKED_COUNTRIES: readonly string[] = [
  'BY',
  'CU',
  'CD',
  'CF',
  'MM',
  'HT',
  'IR',
  'LY',
  'RU',
  'SY',
  'SO',
  'VE',
  'YE',
  'ZW',
];

/** Countries that may choose a European ID card or a passport; every other country: passport only (docs/cards.md#validation). */
export const CARD_EUROPEAN_COUNTRIES: readonly string[] = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HR',
  'HU',
  'IE',
  'IS',
  'IT',
  'LI',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
];

/** Most cards one user may hold (docs/cards.md#permissions). */
export const MAX_CARDS_PER_USER = 3;
/** Largest card-holder image accepted, exclusive: under 10 MB (docs/cards.md#validation). */
export const CARD_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** What the browser compresses a card-holder image to before upload (docs/cards.md#validation). */
export const CARD_IMAGE_COMPRESSION = { quality: 0.4, maxWidth: 600, maxHeight: 600 } as const;
/** How long the "card on the way" dialog shows after payment, in ms (docs/cards.md#constants). */
export const CARD_ON_THE_WAY_MS = 5000;

/** The fixed texts of Card Limits and ATM Limits (docs/cards.md#constants), in EUR. */
export const CARD_LIMITS = {
  monthlyTransactions: '50000.00',
  cardPaymentPerDay: '5000.00',
  dailyAtmWithdrawal: '2000.00',
  minimumAtmWithdrawal: '10.00',
  maximumPerAtmTransaction: '1000.00',
} as const;

/** The identity document a holder applies with; `idno_type` 2 on the wire is a passport, anything else an ID card. */
export const ID_TYPES = ['id_card', 'passport'] as const;
export type IdType = (typeof ID_TYPES)[number];

/** The id types a country may use (docs/cards.md#validation), or none when it is blocked. */
export function allowedIdTypes(country: string): IdType[] {
  const code = country.toUpperCase();
  if (CARD_BLOCKED_COUNTRIES.includes(code)) return [];
  return CARD_EUROPEAN_COUNTRIES.includes(code) ? ['id_card', 'passport'] : ['passport'];
}

/** Images a holder uploads: ID front and back (ID card only), or the passport page; and a selfie. */
export const CARD_DOCUMENT_TYPES = ['id_card_front', 'id_card_back', 'passport', 'selfie'] as const;
export type CardDocumentType = (typeof CARD_DOCUMENT_TYPES)[number];

/** The document images an id type needs, besides the selfie. */
export function requiredDocuments(idType: IdType): CardDocumentType[] {
  return idType === 'id_card' ? ['id_card_front', 'id_card_back'] : ['passport'];
}

/** Review of the card holder at the issuer (docs/cards.md#data card holder `status`, #states). */
export const HOLDER_STATUSES = [
  'pending',
  'under_review',
  'activation_successful',
  'rejection',
  'incomplete_information',
] as const;
export type HolderStatus = (typeof HOLDER_STATUSES)[number];

/** Card status on the wire (docs/cards.md#data, #states): normal = Active, loss = Blocked, unverified = Not active. */
export const CARD_STATUSES = ['unverified', 'normal', 'loss', 'Card replacement processing'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

/** True when `digits` passes the Luhn check (ISO/IEC 7812). */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const countryCode = z
  .string({ error: CARD_ERRORS.countryInvalid })
  .trim()
  .transform((v) => v.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, CARD_ERRORS.countryInvalid));

/** `GET /account/cardholder/check_document`: which documents the country allows. */
export const checkDocumentQuery = z.object({ country: countryCode });

/** Most characters of a document number per id type (docs/cards.md#validation). */
export const ID_NUMBER_MAX: Record<IdType, number> = { id_card: 32, passport: 12 };
/** Fewest characters of a document number (docs/cards.md#validation). */
export const ID_NUMBER_MIN = 6;

/**
 * `POST /account/cardholder`: the document the holder applies with. The number is uppercased; letters, digits
 * and underscore only, 6 to 32 characters for an ID card, 6 to 12 for a passport.
 */
export const createCardholderSchema = z
  .object({
    id_type: z.enum(ID_TYPES, { error: CARD_ERRORS.idTypeInvalid }),
    id_no: z.string({ error: CARD_ERRORS.idNumberRequired }).trim(),
    country: countryCode,
  })
  .superRefine((v, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: 'custom', message, path: ['id_no'] });
    if (v.id_no.length === 0) return issue(CARD_ERRORS.idNumberRequired);
    if (!/^[A-Za-z0-9_]+$/.test(v.id_no)) return issue(CARD_ERRORS.idNumberInvalid);
    if (v.id_no.length < ID_NUMBER_MIN) return issue(CARD_ERRORS.idNumberTooShort);
    if (v.id_no.length > ID_NUMBER_MAX[v.id_type]) return issue(CARD_ERRORS.idNumberTooLong);
  })
  .transform((v) => ({ ...v, id_no: v.id_no.toUpperCase() }));
export type CreateCardholderInput = z.infer<typeof createCardholderSchema>;

/** The text fields of `POST /account/upload_document` (multipart; the image is the file `document_data`). */
export const uploadDocumentFields = z.object({
  doc_type: z.enum(CARD_DOCUMENT_TYPES, { error: CARD_ERRORS.documentTypeInvalid }),
});

const shippingText = (max: number) =>
  z
    .string({ error: CARD_ERRORS.shippingFieldRequired })
    .trim()
    .min(1, CARD_ERRORS.shippingFieldRequired)
    .max(max, CARD_ERRORS.shippingFieldRequired);

/** Where the card is sent (docs/cards.md#data): postcode sent as `post_code`, letters, digits, underscore, at most 6. */
export const shippingAddressSchema = z.object(
  {
    address: shippingText(200),
    city: shippingText(100),
    post_code: z
      .string({ error: CARD_ERRORS.postCodeInvalid })
      .trim()
      .regex(/^[A-Za-z0-9_]{1,6}$/, CARD_ERRORS.postCodeInvalid),
    country: countryCode,
  },
  { error: CARD_ERRORS.shippingFieldRequired },
);
export type ShippingAddress = z.infer<typeof shippingAddressSchema>;

/** A card the user names: the number as the card list shows it (masked) or in full. */
export const cardReference = z
  .string({ error: CARD_ERRORS.cardNumberRequired })
  .trim()
  .min(1, CARD_ERRORS.cardNumberRequired)
  .max(32, CARD_ERRORS.cardNumberRequired);

/**
 * `POST /account/card_cost`: pays the activation and first annual fee of a card and ships it. Without
 * `card_number` a new card is ordered; with it, the named unpaid card is paid (the Pay button).
 */
export const cardCostSchema = z.object({
  card_number: cardReference.optional(),
  shipping_address: shippingAddressSchema,
  confirmed: z.literal(true, { error: CARD_ERRORS.confirmationRequired }),
});
export type CardCostInput = z.infer<typeof cardCostSchema>;

/** The card actions (replace, block, unblock, PIN retrieval): which card, and the spec's `type` label. */
export const cardActionSchema = z.object({
  card_number: cardReference,
  type: z.enum(['Replace', 'Block', 'Unblock', 'Password Retreival']).optional(),
});

/**
 * `POST /account/password/retrieval`: shows one of the user's cards' PIN, on screen only, behind a fresh
 * authenticator code (`otp`; each code once). The PIN is in this answer and nowhere else: never an SMS, a
 * mail, a log or the database.
 */
export const cardPinRevealSchema = cardActionSchema.extend({ otp: totpField });
export type CardPinRevealInput = z.infer<typeof cardPinRevealSchema>;

/** `POST /account/card_activate`: the 16-digit number printed on the card, passing the Luhn check. */
export const cardActivateSchema = z.object({
  card_number: z
    .string({ error: CARD_ERRORS.cardNumberInvalid })
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(
      z
        .string()
        .regex(/^\d{16}$/, CARD_ERRORS.cardNumberInvalid)
        .refine(luhnValid, CARD_ERRORS.cardNumberInvalid),
    ),
});

/** `GET /account/card_charges`: one card's charges, paged. */
export const cardChargesQuery = z.object({
  card_number: cardReference,
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
