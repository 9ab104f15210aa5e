import { z } from 'zod';
import { ERRORS } from '../errors.ts';
import { formatUnits, parseUnits } from '../money.ts';
import { jsonText, textField } from '../validation.ts';
import { mailedTokenField } from './identity.ts';
import { peatioPaging } from './paging.ts';
import { beneficiaryInfoFields } from './travel-rule.ts';

/**
 * Wallet error codes (Peatio `account.*`). The web app maps each to its message in docs/wallet.md#validation, #errors.
 */
export const WALLET_ERRORS = {
  /** Unknown currency, or a currency without the requested network (422). */
  currencyNotFound: 'account.currency.doesnt_exist',
  /** The currency has no network with this `blockchain_key` (422). */
  networkNotFound: 'account.blockchain.doesnt_exist',
  /** Deposits are switched off for this currency on this network (422). */
  depositDisabled: 'account.deposit.disabled',
  /** Amount missing ("Please enter an amount"). */
  amountRequired: 'account.withdraw.missing_amount',
  /** Amount is not a positive decimal of at most 10 characters and 10 decimals, or has more decimals than the currency (422). */
  amountInvalid: 'account.withdraw.invalid_amount',
  /** Amount exceeds the available balance ("Please enter an amount not higher than available balance"). */
  insufficientBalance: 'account.withdraw.insufficient_balance',
  /** Amount below the minimum: minimum withdrawal + fee, or the minimum withdrawal alone for an internal address ("Amount to withdraw should be at least X CUR"). */
  amountTooSmall: 'account.withdraw.amount_too_small',
  /** No beneficiary chosen ("Withdraw address is required"). */
  beneficiaryRequired: 'account.withdraw.missing_beneficiary',
  /** The beneficiary is not active, or belongs to another currency or network (422). */
  beneficiaryNotActive: 'account.withdraw.beneficiary_not_active',
  /** TOTP code missing ("Code is required"). */
  otpRequired: 'account.withdraw.missing_otp',
  /** TOTP code wrong or already used (422). */
  otpInvalid: 'account.withdraw.invalid_otp',
  /** The user is not level 3 or has no 2FA, or the 24-hour hold after a password or 2FA change is running (403). The web app ignores it silently, as the spec says. */
  withdrawNotPermitted: 'account.withdraw.not_permitted',
  /** Withdrawals are switched off for this currency on this network (422). */
  withdrawDisabled: 'account.withdraw.disabled',
  /** Beneficiary name missing ("Name is required"). */
  beneficiaryNameRequired: 'account.beneficiary.missing_name',
  /** Beneficiary name over 64 characters (422). */
  beneficiaryNameTooLong: 'account.beneficiary.name_too_long',
  /** Beneficiary address missing ("Address is required"). */
  beneficiaryAddressRequired: 'account.beneficiary.missing_address',
  /** The address is not valid for the network (422). */
  beneficiaryAddressInvalid: 'account.beneficiary.invalid_address',
  /** The same address is already saved for this currency and network (422). */
  beneficiaryDuplicate: 'account.beneficiary.duplicate_address',
  /** Activation pin missing ("Field is Required"). */
  pinRequired: 'account.beneficiary.missing_pin',
  /** Activation pin is not digits ("Only number is allowed"). */
  pinNotInteger: 'account.beneficiary.non_integer_pin',
  /** Activation pin wrong, expired or out of attempts (422). */
  pinInvalid: 'account.beneficiary.invalid_pin',
  /** The pin was sent less than a minute ago ("Please wait for one minute") (422). */
  pinTooSoon: 'account.beneficiary.resend_too_soon',
  /** The beneficiary is already active (422). */
  beneficiaryAlreadyActive: 'account.beneficiary.already_active',
  /** Beneficiary list: `state` is neither pending nor active (422, as Peatio). */
  beneficiaryStateInvalid: 'account.beneficiary.invalid_state',
  /** `GET /account/beneficiaries/{id}`: the id is not an integer (422, as Peatio). */
  beneficiaryIdInvalid: 'account.beneficiary.non_integer_id',
  /**
   * BASEAPP_COMPAT: the removal link's token is malformed, forged or expired, or its address is already gone
   * (422).
   */
  beneficiaryRemovalTokenInvalid: 'account.beneficiary.invalid_removal_token',
  /** Swap: the pair cannot be swapped (422). */
  swapPairInvalid: 'account.swap.invalid_pair',
  /** Swap: the amount is not a positive decimal within the currency's precision (422). */
  swapAmountInvalid: 'account.swap.invalid_amount',
  /** Swap: there is no price for the pair (422). */
  swapNoPrice: 'account.swap.no_price',
  /** Swap: the quote expired or the price moved beyond the tolerance; ask for a new quote (422). */
  swapQuoteExpired: 'account.swap.quote_expired',
  /** Swap: this quote was already executed; it takes effect once, so ask for a new quote (422). */
  swapQuoteUsed: 'account.swap.quote_used',
  /** Swap: not enough available balance (422). */
  swapInsufficientBalance: 'account.swap.insufficient_balance',
  /** Fiat withdrawal: the currency is not a fiat currency (422). */
  fiatCurrencyInvalid: 'account.fiat.invalid_currency',
  /** Fiat withdrawal: the IBAN is missing or fails its check digits (422). */
  ibanInvalid: 'account.fiat.invalid_iban',
  /** Fiat withdrawal: the account holder's name is missing (422). */
  holderRequired: 'account.fiat.missing_holder',
  /** History filters: a date is in the future, or the end is before the start ("Please enter a valid date range") (422). */
  invalidDateRange: 'account.history.invalid_date_range',
} as const;

/** Developer faucet refusals (only with DEV_TOOLS). */
export const DEV_ERRORS = {
  /** The network has no faucet (a real network, or one this app does not serve) (422). */
  unsupportedNetwork: 'dev.faucet.unsupported_network',
  /** The network does not carry this currency (422). */
  unsupportedCurrency: 'dev.faucet.unsupported_currency',
  /** The address is not valid on the network (422). */
  invalidAddress: 'dev.faucet.invalid_address',
  /** The amount is not a positive decimal within the currency's precision (422). */
  invalidAmount: 'dev.faucet.invalid_amount',
} as const;

/** Beneficiary pin and TOTP length (docs/wallet.md#constants). */
export const PIN_LENGTH = 6;
/**
 * Withdraw amount input: at most 10 characters and 10 decimals as typed (docs/wallet.md#validation). A rule of the input, not of
 * the request: the slider's 100 % is the whole available balance, exactly, however long.
 */
export const WITHDRAW_AMOUNT_MAX_CHARS = 10;
/** Longest amount a withdrawal request may carry (36 digits, the dot). */
const WITHDRAW_AMOUNT_MAX_WIRE = 37;

/**
 * A withdrawal or transfer amount as typed: required, a plain positive decimal, at most 37 characters on the wire;
 * the server checks its decimals against the currency's precision.
 */
export const amountText = textField(WALLET_ERRORS.amountRequired, [
  [(v) => v.trim().length > 0, WALLET_ERRORS.amountRequired],
  [(v) => v.trim().length <= WITHDRAW_AMOUNT_MAX_WIRE, WALLET_ERRORS.amountInvalid],
  [(v) => /^(0|[1-9]\d*)(\.\d+)?$/.test(v.trim()), WALLET_ERRORS.amountInvalid],
]).transform((v) => v.trim());

/** A currency id in a request: 2 to 10 lower-case letters and digits. */
export const currencyId = z
  .string({ error: WALLET_ERRORS.currencyNotFound })
  .regex(/^[a-z0-9]{2,10}$/, WALLET_ERRORS.currencyNotFound);
/** A network's `blockchain_key` in a request. */
export const blockchainKey = z
  .string({ error: WALLET_ERRORS.networkNotFound })
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, WALLET_ERRORS.networkNotFound);
const totp = (missing: string, invalid: string) =>
  textField(missing, [
    [(v) => v.trim().length > 0, missing],
    [(v) => /^\d{6}$/.test(v.trim()), invalid],
  ]).transform((v) => v.trim());

/** `POST /account/withdraws` (docs/wallet.md#data Withdrawal). */
export const withdrawSchema = z.object({
  amount: amountText,
  otp: totp(WALLET_ERRORS.otpRequired, WALLET_ERRORS.otpInvalid),
  beneficiary_id: z.coerce
    .number({ error: WALLET_ERRORS.beneficiaryRequired })
    .int(WALLET_ERRORS.beneficiaryRequired)
    .positive(WALLET_ERRORS.beneficiaryRequired),
  currency: currencyId,
  /** Optional: without it, the beneficiary's own network (BaseApp 2.6 sends none; the beneficiary names it). */
  blockchain_key: blockchainKey.optional(),
});
export type WithdrawInput = z.infer<typeof withdrawSchema>;

/** `POST /account/beneficiaries`. A memo travels in the address after `?dt=` (docs/wallet.md#data). */
export const createBeneficiarySchema = z.object({
  name: z
    .string({ error: WALLET_ERRORS.beneficiaryNameRequired })
    .trim()
    .min(1, WALLET_ERRORS.beneficiaryNameRequired)
    .max(64, WALLET_ERRORS.beneficiaryNameTooLong),
  currency: currencyId,
  /** Optional: without it, the currency's default network (as Peatio 2 clients, which know no networks). */
  blockchain_key: blockchainKey.optional(),
  description: z.string().trim().max(255).optional(),
  /** An object, or the same as a JSON string (Peatio's `data` is "Beneficiary data in JSON format"; BaseApp sends a string). */
  data: z.preprocess(
    jsonText,
    z.object(
      {
        address: z
          .string({ error: WALLET_ERRORS.beneficiaryAddressRequired })
          .trim()
          .min(1, WALLET_ERRORS.beneficiaryAddressRequired)
          .max(200, WALLET_ERRORS.beneficiaryAddressInvalid),
      },
      { error: WALLET_ERRORS.beneficiaryAddressRequired },
    ),
  ),
  /** The travel rule's beneficiary information (optional on the wire, required by the web form). */
  ...beneficiaryInfoFields,
});
export type CreateBeneficiaryInput = z.infer<typeof createBeneficiarySchema>;

/** `PATCH /account/beneficiaries/{id}/activate`. */
export const activateBeneficiarySchema = z.object({
  pin: z
    .string({ error: WALLET_ERRORS.pinRequired })
    .trim()
    .min(1, WALLET_ERRORS.pinRequired)
    .regex(/^\d+$/, WALLET_ERRORS.pinNotInteger)
    .max(PIN_LENGTH, WALLET_ERRORS.pinInvalid),
});

/**
 * `GET /account/beneficiaries` filters, as Peatio 2.6: `currency` (checked against the visible currencies by the
 * server), the raw `currency_id` (filters unchecked; `currency` wins when both are given) and `state`.
 */
export const beneficiaryListQuery = z.object({
  ...peatioPaging,
  currency: z.string().max(10).toLowerCase().optional(),
  currency_id: z.string().max(10).toLowerCase().optional(),
  blockchain_key: z.string().max(64).optional(),
  state: z.enum(['pending', 'active'], { error: WALLET_ERRORS.beneficiaryStateInvalid }).optional(),
});
export type BeneficiaryListQuery = z.infer<typeof beneficiaryListQuery>;

/** `GET /account/beneficiaries/{id}`. */
export const beneficiaryIdParam = z.object({
  id: z.coerce.number({ error: WALLET_ERRORS.beneficiaryIdInvalid }).int(WALLET_ERRORS.beneficiaryIdInvalid),
});

/**
 * BASEAPP_COMPAT: confirming a beneficiary removal with the mailed link's token (`GET` shows what it removes,
 * `POST` removes it).
 */
export const beneficiaryRemovalSchema = z.object({
  token: mailedTokenField(WALLET_ERRORS.beneficiaryRemovalTokenInvalid),
});

/** `DELETE /account/beneficiaries/{id}` with an authenticator code. */
export const deleteBeneficiarySchema = z.object({
  otp: totp(ERRORS.totpRequired, ERRORS.totpInvalid),
});

/** `POST /account/fiats/withdraws`: a payout to the user's bank account. */
export const fiatWithdrawSchema = z.object({
  currency: currencyId,
  amount: amountText,
  otp: totp(WALLET_ERRORS.otpRequired, WALLET_ERRORS.otpInvalid),
  iban: z
    .string({ error: WALLET_ERRORS.ibanInvalid })
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/, WALLET_ERRORS.ibanInvalid)),
  holder: z
    .string({ error: WALLET_ERRORS.holderRequired })
    .trim()
    .min(1, WALLET_ERRORS.holderRequired)
    .max(140, WALLET_ERRORS.holderRequired),
});
export type FiatWithdrawInput = z.infer<typeof fiatWithdrawSchema>;

/** `POST /account/fiats/withdraw/callback`: the user is back from the bank; the server asks the bank itself. */
export const fiatCallbackSchema = z.object({ id: z.coerce.number().int().positive() });

/** Splits a beneficiary address into the address and the optional memo after `?dt=`. */
export function splitMemo(address: string): { address: string; memo: string | null } {
  const at = address.indexOf('?dt=');
  if (at < 0) return { address, memo: null };
  return { address: address.slice(0, at), memo: address.slice(at + 4) || null };
}

/** `GET /account/amount_quote`: how much `to_currency` a swap of `amount` `from_currency` gives now. */
export const amountQuoteQuery = z.object({
  from_currency: currencyId,
  to_currency: currencyId,
  amount: z
    .string({ error: WALLET_ERRORS.swapAmountInvalid })
    .trim()
    .regex(/^(0|[1-9]\d{0,17})(\.\d{1,18})?$/, WALLET_ERRORS.swapAmountInvalid),
});

/** `POST /account/swaps`: executes the quote `quote_id` (from `amount_quote`) while it is valid. */
export const createSwapSchema = amountQuoteQuery.extend({
  quote_id: z
    .string({ error: WALLET_ERRORS.swapQuoteExpired })
    .min(1, WALLET_ERRORS.swapQuoteExpired)
    .max(400, WALLET_ERRORS.swapQuoteExpired),
});

/** A network of a currency, as `GET /public/currencies` lists it. */
export interface NetworkInfo {
  blockchain_key: string;
  min_withdraw_amount: string;
  withdraw_fee: string;
}

/**
 * The least a user may withdraw (docs/wallet.md#validation): the network's minimum plus its fee to an external address,
 * the minimum alone to an address of another user of this exchange. In units of the currency.
 */
export function withdrawMinimum(network: NetworkInfo, precision: number, internal: boolean): bigint {
  const min = unitsOf(network.min_withdraw_amount, precision);
  return internal ? min : min + unitsOf(network.withdraw_fee, precision);
}

/** What arrives (docs/wallet.md#validation): amount − fee, floored at 0; the fee is 0 for an internal address. In units. */
export function amountReceived(amount: bigint, fee: bigint): bigint {
  return amount > fee ? amount - fee : 0n;
}

/** Formats a units amount for display with the currency's precision (no trailing zeros). */
export function formatAmount(units: bigint, precision: number): string {
  return formatUnits(units, precision);
}

function unitsOf(text: string, precision: number): bigint {
  const parsed = parseUnits(text, precision);
  return parsed.ok ? parsed.units : 0n;
}
