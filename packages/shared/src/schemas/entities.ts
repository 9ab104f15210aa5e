/**
 * Response entities of the Peatio and Barong APIs that both the server and the web app read. Every amount is a
 * decimal string.
 */

/** One account of a member: a currency and its available and locked amounts. */
export interface MemberAccount {
  currency: string;
  balance: string;
  locked: string;
}

/** Peatio `GET /account/me`: the signed-in member. */
export interface MemberEntity {
  uid: string;
  email: string;
  level: number;
  role: string;
  group: string;
  state: string;
  accounts: MemberAccount[];
  created_at: string;
  updated_at: string;
}

/** One currency of a portfolio (trading spec §3 Balance row), valued in USDT. */
export interface PortfolioRow {
  currency: string;
  /** Available (spendable) amount. */
  balance: string;
  /** Held by open orders and pending withdrawals. */
  locked: string;
  /** balance + locked. */
  total: string;
  /** Value of one unit in USDT; 1 when there is no price (spec §3: "1 if none"). */
  currency_usdt: string;
  /** total × currency_usdt in USDT, rounded down to USDT's precision. */
  value: string;
}

/**
 * Peatio `GET /account/portfolio` and `/account/update/portfolio`: every currency the user holds (total not
 * zero) and `total`, the sum of the values in `currency` (USDT), computed afresh on each call; `at` is when
 * (Unix seconds).
 */
export interface Portfolio {
  currency: 'usdt';
  total: string;
  balances: PortfolioRow[];
  at: number;
}

/** Barong `POST /identity`: the account state the login flow branches on (`pending` → verify account). */
export interface IdentityState {
  state: string;
  level: number;
}
