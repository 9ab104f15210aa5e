import { toUnits } from '@exchange/shared';
import type { Core } from '../../../core/index.ts';
import { currentSwapRate, type SwapRate } from '../../wallet/swaps.ts';

const ONE: SwapRate = { num: 1n, den: 1n };
const RATE_DECIMALS = 18;

const times = (a: SwapRate, b: SwapRate): SwapRate => ({ num: a.num * b.num, den: a.den * b.den });

/** A decimal string (e.g. CARD_EUR_PER_USDT) as an exact fraction. */
export function decimalRate(text: string): SwapRate {
  return { num: toUnits(text, RATE_DECIMALS), den: 10n ** BigInt(RATE_DECIMALS) };
}

/** The current rate of `from` in `to` through USDT or BTC when no market trades the pair itself. */
function rateVia(core: Core, from: string, to: string): SwapRate | null {
  if (from === to) return ONE;
  const direct = currentSwapRate(core, from, to);
  if (direct) return direct;
  const viaBtc = currentSwapRate(core, from, 'btc');
  const btc = currentSwapRate(core, 'btc', to);
  return viaBtc && btc ? times(viaBtc, btc) : null;
}

/**
 * Exact EUR per whole unit of `currency`: from a market with EUR when one trades it, else its USDT price times
 * EUR per USDT (a USDT/EUR market's, or CARD_EUR_PER_USDT: the exchange lists no such market by default). Null when
 * the currency has no price at all.
 */
export function eurRate(core: Core, currency: string, eurPerUsdt: SwapRate): SwapRate | null {
  if (currency === 'eur') return ONE;
  const direct = currentSwapRate(core, currency, 'eur');
  if (direct) return direct;
  const usdt = rateVia(core, currency, 'usdt');
  if (!usdt) return null;
  return times(usdt, currentSwapRate(core, 'usdt', 'eur') ?? eurPerUsdt);
}

/**
 * The value of `units` (at `precision` decimals) in EUR cents at `rate`, rounded down: bigint arithmetic
 * throughout, one division at the end, so a rule compares exact cents.
 */
export function eurCents(units: bigint, precision: number, rate: SwapRate): bigint {
  return (units * rate.num * 100n) / (10n ** BigInt(precision) * rate.den);
}
