import { formatUnits, toUnits } from '@exchange/shared';

/** USDT's precision (the card currency), and the decimals of the EUR per USDT rate. */
export const USDT_DECIMALS = 6;
export const RATE_DECIMALS = 8;
/** EUR is shown in cents. */
export const EUR_DECIMALS = 2;

/** The top-up fee is shared with the web app, which offers amounts the fee leaves room for. */
export { topupFee } from '@exchange/shared';

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
