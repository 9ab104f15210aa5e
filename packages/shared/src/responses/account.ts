import { z } from 'zod';
import { decimal, isoTime } from './common.ts';
import { depositAddressResponse } from './wallet.ts';

/**
 * Peatio's answers about the member's account: balances with their deposit addresses, the member, the portfolio
 * valued in USDT and its charts; and the account state Barong's login flow branches on.
 */

/** Peatio's PaymentAddress as an account carries it. */
export const accountDepositAddressResponse = depositAddressResponse
  .omit({ currency: true })
  .meta({ id: 'AccountDepositAddress' });

/**
 * An account of `GET /account/balances`: available and locked amounts, the value of one unit in USDT, and for a
 * currency with a network its deposit address (null until one is handed out).
 */
export const balanceResponse = z
  .object({
    currency: z.string(),
    name: z.string(),
    precision: z.number().int(),
    balance: decimal,
    locked: decimal,
    usdt_price: decimal,
    deposit_address: accountDepositAddressResponse.nullable().optional(),
  })
  .meta({ id: 'Balance' });

/** One account of a member: a currency and its available and locked amounts. */
export const memberAccountResponse = z.object({ currency: z.string(), balance: decimal, locked: decimal });
export type MemberAccount = z.infer<typeof memberAccountResponse>;

/** Peatio `GET /account/me` and `/account/members/me`: the signed-in member. */
export const memberResponse = z
  .object({
    uid: z.string(),
    email: z.string(),
    level: z.number().int(),
    role: z.string(),
    group: z.string(),
    state: z.string(),
    accounts: z.array(memberAccountResponse),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: 'Member' });
export type MemberEntity = z.infer<typeof memberResponse>;

/** One currency of a portfolio (docs/wallet.md#data Balance row), valued in USDT. */
export const portfolioRowResponse = z.object({
  currency: z.string(),
  /** Available (spendable) amount. */
  balance: decimal,
  /** Held by open orders and pending withdrawals. */
  locked: decimal,
  /** balance + locked. */
  total: decimal,
  /** Value of one unit in USDT; 1 when there is no price (docs/wallet.md#data: "1 if none"). */
  currency_usdt: decimal,
  /** total × currency_usdt in USDT, rounded down to USDT's precision. */
  value: decimal,
});
export type PortfolioRow = z.infer<typeof portfolioRowResponse>;

/**
 * Peatio `GET /account/portfolio` and `/account/update/portfolio`: every currency the user holds (total not
 * zero) and `total`, the sum of the values in `currency` (USDT), computed afresh on each call; `at` is when
 * (Unix seconds).
 */
export const portfolioResponse = z.object({
  currency: z.literal('usdt'),
  total: decimal,
  balances: z.array(portfolioRowResponse),
  at: z.number().int(),
});
export type Portfolio = z.infer<typeof portfolioResponse>;

/** `GET /account/balances/pie_chart`. */
export const pieChartResponse = z.array(z.object({ currency: z.string(), total: decimal, value: decimal }));

/** `GET /account/balances/line_chart`: the total in USDT at the end of each of the last days. */
export const lineChartResponse = z.array(z.object({ date: z.string(), value: decimal }));

/** Barong `POST /identity`: the account state the login flow branches on (`pending` → verify account). */
export interface IdentityState {
  state: string;
  level: number;
}
