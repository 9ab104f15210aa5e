import { z } from 'zod';
import { SANCTIONS_ERRORS } from '../schemas/sanctions.ts';
import { WALLET_ERRORS } from '../schemas/wallet.ts';
import { decimal, isoTime } from './common.ts';

/** Peatio's wallet answers: deposit addresses, histories, withdrawals, beneficiaries, swaps and bank payouts. */

/** `GET /account/deposit_address/{currency}`: Peatio's PaymentAddress. */
export const depositAddressResponse = z
  .object({
    currency: z.string(),
    currencies: z.array(z.string()),
    blockchain_key: z.string(),
    address: z.string(),
    state: z.literal('active'),
  })
  .meta({ id: 'DepositAddress' });

/** A deposit, withdrawal or adjustment as the account history lists return it (docs/wallet.md#data). */
export const walletHistoryItemResponse = z
  .object({
    id: z.number().int(),
    currency: z.string(),
    blockchain_key: z.string().nullable(),
    amount: decimal,
    fee: decimal,
    state: z.string(),
    /** Chain transaction id; null for internal transfers and adjustments. */
    txid: z.string().nullable(),
    blockchain_txid: z.string().nullable(),
    /** Recipient address (withdrawals) or deposit address (deposits). */
    rid: z.string().nullable(),
    tid: z.string(),
    /** 'internal' for transfers between users of this exchange, 'external' otherwise; 'adjustment' for adjustments. */
    transaction_type: z.enum(['internal', 'external', 'adjustment']),
    confirmations: z.number().int().optional(),
    /** Withdrawals: what staff told the user (the reason of a rejection after review), or null. */
    note: z.string().nullable().optional(),
    /**
     * Deposits: a dotted code saying why it is not credited yet or what became of it (the travel rule: waiting for
     * the sender's information, or returned to the sender), or null.
     */
    message: z.string().nullable().optional(),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({
    id: 'WalletHistoryItem',
    examples: [
      {
        id: 7,
        currency: 'btc',
        blockchain_key: 'btc-sim',
        amount: '0.5',
        fee: '0',
        state: 'collected',
        txid: 'f4c1…',
        blockchain_txid: 'f4c1…',
        rid: 'bcrt1q…',
        tid: 'D7',
        transaction_type: 'external',
        confirmations: 30,
        created_at: '2026-05-01T09:30:00.123Z',
        updated_at: '2026-05-01T09:40:00.456Z',
      },
    ],
  });
export type WalletHistoryItem = z.infer<typeof walletHistoryItemResponse>;

/** One deposit or withdrawal as Peatio's Transactions entity shows it (`GET /account/transactions`). */
export const transactionItemResponse = z
  .object({
    /** `Deposit` or `Withdraw`, as Peatio names the kinds. */
    type: z.enum(['Deposit', 'Withdraw']),
    id: z.number().int(),
    currency: z.string(),
    blockchain_key: z.string().nullable(),
    /** The deposit address that received it, or the withdrawal's destination. */
    address: z.string().nullable(),
    amount: decimal,
    fee: decimal,
    txid: z.string().nullable(),
    state: z.string(),
    note: z.string().nullable(),
    /** Deposits seen on chain only (Peatio leaves it out when it has none). */
    confirmations: z.number().int().optional(),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: 'Transaction' });
export type TransactionItem = z.infer<typeof transactionItemResponse>;

/**
 * `GET /account/withdraw_permission`: whether the user may withdraw now, and why not. `reason` is the code a
 * withdrawal, transfer or payout would be refused with now (null when allowed): `account.withdraw.not_permitted`
 * (level, 2FA or the hold after a password or 2FA change, see `level`, `otp`, `hold_until`), or
 * `account.withdraw.sanctions_review` (a sanctions screening hit waits for compliance, or was confirmed).
 */
export const withdrawPermissionResponse = z.object({
  allowed: z.boolean(),
  level: z.number().int(),
  otp: z.boolean(),
  hold_until: isoTime.nullable(),
  reason: z.enum([WALLET_ERRORS.withdrawNotPermitted, SANCTIONS_ERRORS.frozen]).nullable(),
});

/** A saved withdrawal address (docs/wallet.md#data Beneficiary, with Peatio's `uid` and `sent_at`). */
export const beneficiaryResponse = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    currency: z.string(),
    blockchain_key: z.string(),
    state: z.enum(['pending', 'active']),
    data: z.object({ address: z.string(), memo: z.string().optional() }),
    created_at: isoTime,
    /** The address is another user's deposit address here: a withdrawal to it is internal (no fee, docs/wallet.md#validation). */
    internal: z.boolean(),
    /** The owner's uid (Peatio's). */
    uid: z.string(),
    /** When the last activation pin was mailed (Peatio's), or null. */
    sent_at: isoTime.nullable(),
    /** Travel rule: whom the address belongs to (null when the client that saved it did not say). */
    beneficiary_name: z.string().nullable(),
    /** Travel rule: held at another provider or self-hosted (null when not said). */
    hosting: z.enum(['provider', 'self_hosted']).nullable(),
    /** Travel rule: the provider holding the address, as declared. */
    provider: z.object({ id: z.string(), name: z.string(), lei: z.string().nullable() }).nullable(),
    /** Travel rule: when the customer proved control of this self-hosted address by a signed message. */
    ownership_proved_at: isoTime.nullable(),
  })
  .meta({
    id: 'Beneficiary',
    examples: [
      {
        id: 3,
        name: 'Cold wallet',
        description: '',
        currency: 'btc',
        blockchain_key: 'btc-sim',
        state: 'active',
        data: { address: 'bcrt1qxyz' },
        created_at: '2026-05-01T09:30:00.123Z',
        internal: false,
        uid: 'ID1A2B3C4D5E',
        sent_at: '2026-05-01T09:30:00.200Z',
        beneficiary_name: 'Jan Kowalski',
        hosting: 'self_hosted',
        provider: null,
        ownership_proved_at: null,
      },
    ],
  });
export type BeneficiaryItem = z.infer<typeof beneficiaryResponse>;

/** BASEAPP_COMPAT: `POST /public/beneficiaries/removal` by a program: the address removed. */
export const beneficiaryRemovedResponse = z.object({ id: z.number().int(), removed: z.literal(true) });

/** `GET /account/amount_quote`. */
export const amountQuoteResponse = z
  .object({
    quote_id: z.string(),
    from_currency: z.string(),
    to_currency: z.string(),
    amount: decimal,
    /** Units of `to_currency` per 1 `from_currency`. */
    price: decimal,
    fee: decimal,
    /** What the user receives after the fee. */
    total: decimal,
    expires_at: isoTime,
  })
  .meta({ id: 'AmountQuote' });
export type AmountQuote = z.infer<typeof amountQuoteResponse>;

/** A swap in the swap history (docs/wallet.md#data Swap item). */
export const swapResponse = z
  .object({
    id: z.number().int(),
    created_at: isoTime,
    /** Amount swapped, in `ask_currency`. */
    price: decimal,
    ask_currency: z.string(),
    /** Amount received, in `currency`. */
    total: decimal,
    currency: z.string(),
    fee: decimal,
    state: z.enum(['completed', 'rejected']),
  })
  .meta({ id: 'Swap' });
export type SwapItem = z.infer<typeof swapResponse>;

/** A payout to a bank account. */
export const fiatWithdrawalResponse = z
  .object({
    id: z.number().int(),
    currency: z.string(),
    amount: decimal,
    fee: decimal,
    iban: z.string(),
    holder: z.string(),
    state: z.enum(['prepared', 'processing', 'succeed', 'failed', 'rejected']),
    bank_ref: z.string().nullable(),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: 'FiatWithdrawal' });

/** What became of a bank payout: finished, still with the bank, or failed (the amount released). */
const returnType = z.enum(['FINISHED', 'PROCESSING', 'ERROR']);

/** `POST /account/fiats/withdraws`. */
export const fiatWithdrawResponse = z.object({ returnType, transaction: fiatWithdrawalResponse.nullable() });

/** `POST /account/fiats/withdraw/callback`. */
export const fiatCallbackResponse = z.object({ returnType });
