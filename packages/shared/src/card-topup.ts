import { toUnits } from './money.ts';
import { TOPUP_DECIMALS } from './schemas/card-money.ts';

/**
 * Card top-up arithmetic shared by the server (which charges and checks) and the web app (which offers amounts):
 * USDT in bigint units of 10^-6 (docs/cards.md#validation, #constants). The fee is charged on top of the amount loaded.
 */

/** 100 % in the units a fee percent is read at (the percent keeps up to 6 decimals, e.g. `1` or `0.25`). */
const HUNDRED_PERCENT = 100n * 10n ** BigInt(TOPUP_DECIMALS);

/**
 * The top-up fee of `amount`: `percent` (a decimal string, e.g. CARD_TOPUP_FEE `1`) of it, exact, rounded up to
 * the unit so that rounding never creates money for the user (the remainder is the exchange's).
 */
export function topupFee(amount: bigint, percent: string): bigint {
  const pct = toUnits(percent, TOPUP_DECIMALS);
  return (amount * pct + HUNDRED_PERCENT - 1n) / HUNDRED_PERCENT;
}

/**
 * The largest amount whose top-up, fee included, `spot` pays: the greatest `a` with `a + topupFee(a) <= spot`.
 * (`a + ceil(a·p/H)` is `ceil(a·(H+p)/H)`, which is at most `spot` exactly when `a·(H+p) <= spot·H`.)
 */
export function largestTopupFor(spot: bigint, percent: string): bigint {
  if (spot <= 0n) return 0n;
  const pct = toUnits(percent, TOPUP_DECIMALS);
  return (spot * HUNDRED_PERCENT) / (HUNDRED_PERCENT + pct);
}

/** What bounds a top-up now, in USDT units. */
export interface TopupRoom {
  /** The spot USDT balance (available). */
  spot: bigint;
  /** The top-up fee, percent (`card_fee.topup_fee`). */
  feePercent: string;
  /** The card's balance and its top-ups on their way to it: both count under the load limit. */
  cardBalance: bigint;
  pending: bigint;
  /** Today's top-ups of the card (`total_24h`) and the daily limit (`topup_limit`). */
  today: bigint;
  dailyLimit: bigint;
  /** The maximum card balance (`load_limit`). */
  loadLimit: bigint;
}

/**
 * What can be loaded now (issue 32): the smallest of the spot balance less the fee, the day's remaining limit
 * and the room under the load limit; never below 0.
 */
export function loadableTopup(room: TopupRoom): bigint {
  // bigint has no Math.min.
  let least = largestTopupFor(room.spot, room.feePercent);
  for (const bound of [room.dailyLimit - room.today, room.loadLimit - room.cardBalance - room.pending])
    if (bound < least) least = bound;
  return least > 0n ? least : 0n;
}

/** A quick button's amount (docs/cards.md#validation: 25, 50, 75, 100 %): `percent` % of what can be loaded, rounded down. */
export function quickTopup(loadable: bigint, percent: number): bigint {
  return (loadable * BigInt(percent)) / 100n;
}
