import { toUnits } from '@exchange/shared';
import type { Core } from '../../../core/index.ts';
import { usdtValue } from '../../wallet/valuation.ts';

/** EUR has 2 decimals (cents); the EUR per USDT rate has 8. */
const RATE_DECIMALS = 8;

/**
 * What `units` of `currency` are worth in EUR cents now, rounded down, with integers only: EUR itself is exact;
 * anything else is valued in USDT by the wallet's valuation (its market, or through BTC) and converted at
 * `eurPerUsdt` (CARD_EUR_PER_USDT).
 */
export function eurCents(core: Core, currency: string, units: bigint, eurPerUsdt: string): bigint {
  if (currency === 'eur') {
    const precision = core.units.precision('eur');
    return precision >= 2 ? units / 10n ** BigInt(precision - 2) : units * 10n ** BigInt(2 - precision);
  }
  const usdt = usdtValue(core, currency, units);
  const usdtPrecision = core.units.precision('usdt');
  return (usdt * toUnits(eurPerUsdt, RATE_DECIMALS)) / 10n ** BigInt(usdtPrecision + RATE_DECIMALS - 2);
}
