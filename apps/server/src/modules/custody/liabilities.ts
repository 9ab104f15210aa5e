import { formatUnits, type SolvencyLiabilitiesEntity, toUnits } from '@exchange/shared';
import type { Queryable } from '../../core/audit.ts';
import { CARD_CURRENCY } from '../card/context.ts';
import { accountTotals, currencyTotals } from './liabilities-repository.ts';

/**
 * What the exchange owes its customers, read from the ledger's materialised balances (which `npm run audit` checks
 * against the postings). Which accounts count:
 *
 * - every user's `balances.balance` (available) and `balances.locked`, staff included (a staff member is a customer
 *   with a role). `locked` holds both the funds of open orders and the withdrawals not yet settled: the core's
 *   `HoldWithdrawal` moves the amount from balance to locked and keeps it in `withdrawal_holds` until it is
 *   settled (paid out, or paid to the recipient of an internal transfer) or released (back to balance). So a
 *   pending withdrawal is owed exactly once, inside `locked`; `withdrawal_holds` only splits `locked` into
 *   `orders` and `withdrawals` for the report. A withdrawal already broadcast but not yet settled is still
 *   owed here while its coins may have left the hot wallet: the check errs on the safe side.
 * - card top-ups on their way (the `card` float's part that may still come back to the spot balance): submitted
 *   to the issuer, or refused and not yet refunded, or still `new` when the core has committed their command (the
 *   same rule as the card audit, core/audit.ts). A settled top-up is on the card: the issuer owes it (paid from
 *   the program's funding, not from our chains), so it is not counted.
 *
 * Not counted: the exchange's own accounts in `system_balances`: `fees` (revenue), `swap` (our liquidity),
 * `external` (the counter of money that came in or went out, not anybody's claim), and the settled part of `card`.
 */

/** One currency's liabilities in integer units, with its type and precision. */
export interface CurrencyLiabilities {
  currency: string;
  type: 'coin' | 'fiat';
  precision: number;
  available: bigint;
  orders: bigint;
  withdrawals: bigint;
  card: bigint;
  total: bigint;
}

/** Liabilities per currency (every currency, zero ones included), in the order the exchange lists them. */
export async function liabilitiesByCurrency(db: Queryable): Promise<CurrencyLiabilities[]> {
  const rows = await currencyTotals(db, CARD_CURRENCY);
  return rows.map((r) => {
    const p = Number(r.precision);
    const available = toUnits(r.available, p);
    const locked = toUnits(r.locked, p);
    const withdrawals = toUnits(r.held, p);
    const card = toUnits(r.card, p);
    return {
      currency: r.currency,
      type: r.type,
      precision: p,
      available,
      orders: locked - withdrawals,
      withdrawals,
      card,
      total: available + locked + card,
    };
  });
}

/** The wire form of {@link CurrencyLiabilities}. */
export function liabilitiesEntity(l: CurrencyLiabilities): SolvencyLiabilitiesEntity {
  const f = (v: bigint) => formatUnits(v, l.precision);
  return {
    available: f(l.available),
    orders: f(l.orders),
    withdrawals: f(l.withdrawals),
    card: f(l.card),
    total: f(l.total),
  };
}

/** What one account is owed, per currency, as canonical decimal strings (zero amounts left out). */
export interface AccountLiabilities {
  userId: number;
  uid: string;
  balances: Record<string, string>;
}

/**
 * Every account with a balance row (or a card top-up in flight), with what it is owed per currency: the same
 * accounts and amounts {@link liabilitiesByCurrency} sums, so the leaves of a snapshot add up to the report.
 */
export async function liabilitiesByAccount(db: Queryable): Promise<AccountLiabilities[]> {
  const rows = await accountTotals(db, CARD_CURRENCY);
  const accounts = new Map<number, AccountLiabilities>();
  for (const r of rows) {
    const userId = Number(r.user_id);
    let account = accounts.get(userId);
    if (!account) {
      account = { userId, uid: r.uid, balances: {} };
      accounts.set(userId, account);
    }
    const p = Number(r.precision);
    const units = toUnits(r.amount, p);
    if (units !== 0n) account.balances[r.currency_id] = formatUnits(units, p);
  }
  return [...accounts.values()];
}
