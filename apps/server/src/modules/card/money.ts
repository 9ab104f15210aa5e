import { formatUnits, toUnits } from '@exchange/shared';

/** USDT's precision (the card currency), and the decimals of the EUR per USDT rate. */
export const USDT_DECIMALS = 6;
export const RATE_DECIMALS = 8;
/** EUR is shown in cents. */
export const EUR_DECIMALS = 2;

/** Ceiling division of non-negative bigints. */
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * The top-up fee of `amount` (USDT units): `percent` (a decimal string, e.g. CARD_TOPUP_FEE `1`) of it, exact,
 * rounded up to the unit so that rounding never creates money for the user (the remainder is the exchange's).
 */
export function topupFee(amount: bigint, percent: string): bigint {
  const pct = toUnits(percent, USDT_DECIMALS);
  return ceilDiv(amount * pct, 100n * 10n ** BigInt(USDT_DECIMALS));
}

/** The rate EUR per USDT in units of 10^-8, from its decimal string (CARD_EUR_PER_USDT). */
export function rateUnits(eurPerUsdt: string): bigint {
  return toUnits(eurPerUsdt, RATE_DECIMALS);
}

/** USDT units → EUR cents at `rate` (units of 10^-8), rounded down once. */
export function usdtToEurCents(usdt: bigint, rate: bigint): bigint {
  return (usdt * rate) / 10n ** BigInt(USDT_DECIMALS + RATE_DECIMALS - EUR_DECIMALS);
}

/** EUR (units of 10^-`eurDecimals`) → USDT units at `rate`, rounded down once. */
export function eurToUsdt(eur: bigint, eurDecimals: number, rate: bigint): bigint {
  return (eur * 10n ** BigInt(USDT_DECIMALS + RATE_DECIMALS)) / (rate * 10n ** BigInt(eurDecimals));
}

export const fmtUsdt = (units: bigint) => formatUnits(units, USDT_DECIMALS);
export const fmtEur = (cents: bigint) => formatUnits(cents, EUR_DECIMALS, EUR_DECIMALS);
